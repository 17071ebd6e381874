/** The shapes of the API this client reads (the parts it uses). */

export interface User {
  user_id: number;
  email: string;
  full_name: string;
  avatar_url: string | null;
  is_active: boolean;
  is_bot: boolean;
  role: number;
  is_admin?: boolean;
  is_owner?: boolean;
  /** Shown when the organization lets the viewer see it; null otherwise. */
  delivery_email?: string | null;
  timezone?: string;
  date_joined?: string;
  /** Custom profile field values by field ID. */
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
  /** For bots: 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded. */
  bot_type?: number | null;
  bot_owner_id?: number | null;
}

export interface Subscription {
  stream_id: number;
  name: string;
  description: string;
  /** The description as the server renders it (Markdown to HTML). */
  rendered_description?: string;
  subscriber_count?: number;
  color: string;
  invite_only: boolean;
  is_muted?: boolean;
  pin_to_top?: boolean;
  /** Whether the empty topic may be used here: 'inherit' follows the organization. */
  topics_policy?: string;
  /** Per-channel notification settings; null follows the person's own defaults. */
  desktop_notifications?: boolean | null;
  audible_notifications?: boolean | null;
  push_notifications?: boolean | null;
  email_notifications?: boolean | null;
  wildcard_mentions_notify?: boolean | null;
  /** A subscription carries its channel's group settings too. */
  [groupSetting: `can_${string}_group`]: GroupSettingValue | undefined;
}

/** Who holds a permission: a user group's ID, or people and groups named one by one. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export interface Channel {
  stream_id: number;
  name: string;
  description: string;
  /** The description as the server renders it (Markdown to HTML). */
  rendered_description?: string;
  invite_only: boolean;
  is_web_public?: boolean;
  is_archived?: boolean;
  topics_policy?: string;
  history_public_to_subscribers?: boolean;
  subscriber_count?: number;
  /** The group settings (can_send_message_group ...), as the server sends them. */
  [groupSetting: `can_${string}_group`]: GroupSettingValue | undefined;
}

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

/** A draft as the server keeps it (`/drafts`): a channel ID in `to`, or the other people's IDs. */
export interface Draft {
  id: number;
  type: 'stream' | 'private' | '';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export interface DisplayRecipient {
  id: number;
  email: string;
  full_name: string;
}

export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url: string | null;
  timestamp: number;
  content: string;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  display_recipient: string | DisplayRecipient[];
  flags: string[];
  reactions: Reaction[];
  /** A `/me` message: shown as the sender's status, "Iago is away". */
  is_me_message?: boolean;
  /** When its content was last edited. */
  last_edit_timestamp?: number;
  /** When it was last moved to another topic or channel (resolving a topic does not count). */
  last_moved_timestamp?: number;
  /** Widget data (polls, to-do lists), oldest first. */
  submessages?: Submessage[];
  /** In search results: the content and topic with the searched words marked by the server. */
  match_content?: string;
  match_subject?: string;
  /** Set on a local echo, until the server's copy replaces it. */
  local_id?: string;
  /** A local echo that could not be sent. */
  failed?: boolean;
}

export interface Submessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  /** JSON text: a widget's start (`widget_type`, `extra_data`), then its events. */
  content: string;
}

export interface NarrowTerm {
  operator: string;
  operand: string;
  negated?: boolean;
}

export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
}

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  is_system_group: boolean;
  deactivated?: boolean;
  members?: number[];
  direct_subgroup_ids?: number[];
  creator_id?: number | null;
  /** Its permissions (can_manage_group, can_join_group ...), as group-setting values. */
  [setting: `can_${string}_group`]: GroupSettingValue | undefined;
}

/** A message waiting to be sent by the server at its time (`/scheduled_messages`). */
export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  /** A channel's ID, or the people of a direct message. */
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}
