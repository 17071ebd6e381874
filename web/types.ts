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
}

export interface Subscription {
  stream_id: number;
  name: string;
  description: string;
  color: string;
  invite_only: boolean;
  is_muted?: boolean;
  pin_to_top?: boolean;
}

export interface Channel {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
  is_web_public?: boolean;
  is_archived?: boolean;
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
  last_edit_timestamp?: number;
  /** In search results: the content and topic with the searched words marked by the server. */
  match_content?: string;
  match_subject?: string;
  /** Set on a local echo, until the server's copy replaces it. */
  local_id?: string;
  /** A local echo that could not be sent. */
  failed?: boolean;
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
}
