import { post } from './api';
import { WEB_CLIENT_REGISTRATION } from './register-params';
import type { Channel, Draft, RealmEmoji, ScheduledMessage, Subscription, User, UserGroup } from './types';
import type { SavedSnippet } from './compose/snippets';
import type { Reminder } from './compose/scheduled';

/**
 * POST /json/register: what the client asks for and what the answer holds. Kept apart from
 * the event loop (live.ts) so the page's first script can send it before the app is loaded.
 */

/** One topic's visibility policy for the person, as `user_topics` and `user_topic` events give it. */
export interface UserTopic {
  stream_id: number;
  topic_name: string;
  visibility_policy: number;
}

/** One person's presence as `slim_presence` gives it. */
export interface SlimPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface RegisterAnswer {
  queue_id: string;
  last_event_id: number;
  realm_name: string;
  server_emoji_data_url?: string;
  max_file_upload_size_mib?: number;
  max_message_length?: number;
  realm_users: User[];
  cross_realm_bots?: User[];
  realm_non_active_users?: User[];
  subscriptions: Subscription[];
  streams?: Channel[];
  never_subscribed?: Channel[];
  unread_msgs: {
    streams: Array<{ stream_id: number; topic: string; unread_message_ids: number[] }>;
    pms: Array<{ other_user_id: number; unread_message_ids: number[] }>;
    huddles: Array<{ user_ids_string: string; unread_message_ids: number[] }>;
    mentions: number[];
  };
  recent_private_conversations: Array<{ user_ids: number[]; max_message_id: number }>;
  presences: Record<string, SlimPresence>;
  presence_last_update_id?: number;
  realm_emoji: Record<string, RealmEmoji>;
  realm_user_groups?: UserGroup[];
  user_topics?: UserTopic[];
  drafts?: Draft[];
  saved_snippets?: SavedSnippet[];
  scheduled_messages?: ScheduledMessage[];
  reminders?: Reminder[];
  user_settings?: Record<string, unknown>;
  alert_words?: string[];
  is_admin: boolean;
  is_owner: boolean;
  user_id: number;
  zulip_feature_level: number;
}

/** Registers an event queue and fetches the state the client starts from. */
export function requestRegistration(): Promise<RegisterAnswer> {
  return post<RegisterAnswer>('/json/register', WEB_CLIENT_REGISTRATION);
}
