/**
 * The organization settings the two pages show, in the sections and order of Zulip's
 * "Organization settings" and "Organization permissions" pages. Keys are register's (realm_...);
 * PATCH /realm takes each without the prefix.
 */

export type RealmSettingKind =
  | { kind: 'bool' }
  | { kind: 'choice'; options: Array<[string | number, string]> }
  /** Seconds, or null for no limit. */
  | { kind: 'time-limit' }
  /** A channel's ID, or -1 for none. */
  | { kind: 'channel' }
  /** A user group (or people and groups named one by one). */
  | { kind: 'group' }
  | { kind: 'language' }
  /** Whole days; with `forever`, -1 means keeping forever. */
  | { kind: 'days'; forever?: string };

export type RealmSettingItem = RealmSettingKind & { key: string; label: string; hint?: string };

export interface RealmSettingGroup {
  title: string;
  items: RealmSettingItem[];
}

/** Settings only the organization's owners may change (the server refuses them to administrators). */
export const OWNERS_ONLY = new Set([
  'realm_invite_required',
  'realm_disallow_disposable_email_addresses',
  'realm_emails_restricted_to_domains',
  'realm_message_retention_days',
  'realm_waiting_period_threshold',
  'realm_create_multiuse_invite_group',
  'realm_can_create_groups',
  'realm_can_invite_users_group',
  'realm_can_manage_all_groups',
  'realm_can_manage_billing_group',
]);

const WEEKDAYS: Array<[number, string]> = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((day, i) => [i, day]);

const bool = (key: string, label: string, hint?: string): RealmSettingItem => ({ kind: 'bool', key, label, hint });
const group = (key: string, label: string, hint?: string): RealmSettingItem => ({ kind: 'group', key, label, hint });
const channel = (key: string, label: string, hint?: string): RealmSettingItem => ({ kind: 'channel', key, label, hint });
const limit = (key: string, label: string): RealmSettingItem => ({ kind: 'time-limit', key, label });

export const ORGANIZATION_SETTINGS: RealmSettingGroup[] = [
  {
    title: 'Automated messages and emails',
    items: [
      { kind: 'language', key: 'realm_default_language', label: 'Language for automated messages and invitation emails' },
      channel('realm_new_stream_announcements_stream_id', 'Channel for new channel announcements'),
      channel('realm_signup_announcements_stream_id', 'Channel for new user announcements'),
      channel('realm_zulip_update_announcements_stream_id', 'Channel for announcements of new server features'),
      channel('realm_moderation_request_channel_id', 'Channel for moderation requests', 'Reports of messages go here; it must be a private channel.'),
      bool('realm_send_welcome_emails', 'Send emails introducing the organization to new users'),
      bool('realm_message_content_allowed_in_email_notifications', 'Include the content of messages in email notifications'),
      bool('realm_digest_emails_enabled', 'Send weekly digest emails to inactive users'),
      { kind: 'choice', key: 'realm_digest_weekday', label: 'Day of the week to send digests', options: WEEKDAYS },
      bool('realm_send_channel_events_messages', 'Post a notice in a channel when its name, description or permissions change'),
    ],
  },
  {
    title: 'Message retention',
    items: [{ kind: 'days', key: 'realm_message_retention_days', label: 'Keep messages for (days)', forever: 'Keep forever' }],
  },
  {
    title: 'Compose and message feed',
    items: [
      {
        kind: 'choice',
        key: 'realm_topics_policy',
        label: 'Messages without a topic',
        options: [
          ['allow_empty_topic', 'Allowed (shown under the general chat topic)'],
          ['disable_empty_topic', 'Not allowed: every message needs a topic'],
        ],
      },
      {
        kind: 'choice',
        key: 'realm_video_chat_provider',
        label: 'Call provider',
        options: [
          [0, 'None'],
          [1, 'Jitsi Meet'],
        ],
      },
      {
        kind: 'choice',
        key: 'realm_gif_rating_policy',
        label: 'GIFs offered by the GIF picker',
        options: [
          [0, 'None: the GIF picker is off'],
          [1, 'Rated Y (very young audiences)'],
          [2, 'Rated G (general audiences)'],
          [3, 'Rated PG (parental guidance)'],
          [4, 'Rated PG-13'],
          [5, 'Rated R (restricted)'],
        ],
      },
      {
        kind: 'choice',
        key: 'realm_media_preview_size',
        label: 'Size of image previews',
        options: [
          [100, 'Normal'],
          [150, 'Larger'],
          [200, 'Largest'],
        ],
      },
      bool('realm_enable_read_receipts', 'Enable read receipts', 'People can see who has read a message.'),
      bool('realm_inline_image_preview', 'Show previews of uploaded and linked images'),
      bool('realm_inline_url_embed_preview', 'Show previews of linked websites'),
      bool('realm_enable_guest_user_indicator', 'Mark guests with "(guest)" after their names'),
      bool('realm_enable_guest_user_dm_warning', 'Warn when composing a direct message to a guest'),
    ],
  },
];

export const ORGANIZATION_PERMISSIONS: RealmSettingGroup[] = [
  {
    title: 'Joining the organization',
    items: [
      bool('realm_invite_required', 'Invitations are required for joining the organization'),
      group('realm_can_invite_users_group', 'Who can send email invitations to new users'),
      group('realm_create_multiuse_invite_group', 'Who can create reusable invitation links'),
      bool('realm_disallow_disposable_email_addresses', 'Refuse disposable email addresses'),
      { kind: 'days', key: 'realm_waiting_period_threshold', label: 'Days before a new member becomes a full member' },
    ],
  },
  {
    title: 'Channel permissions',
    items: [
      group('realm_can_create_public_channel_group', 'Who can create public channels'),
      group('realm_can_create_private_channel_group', 'Who can create private channels'),
      group('realm_can_create_web_public_channel_group', 'Who can create web-public channels'),
      group('realm_can_add_subscribers_group', 'Who can subscribe others to channels'),
      group('realm_can_set_topics_policy_group', 'Who can set the topics policy of channels they administer'),
    ],
  },
  {
    title: 'Group permissions',
    items: [
      group('realm_can_manage_all_groups', 'Who can administer all user groups'),
      group('realm_can_create_groups', 'Who can create user groups'),
    ],
  },
  {
    title: 'Direct messages',
    items: [
      group('realm_direct_message_permission_group', 'Who can be in a direct message conversation'),
      group('realm_direct_message_initiator_group', 'Who can start a direct message conversation'),
    ],
  },
  {
    title: 'Message editing',
    items: [
      bool('realm_allow_message_editing', 'Allow people to edit their messages'),
      limit('realm_message_content_edit_limit_seconds', 'Time limit for editing messages'),
      {
        kind: 'choice',
        key: 'realm_message_edit_history_visibility_policy',
        label: 'Who can see the edit history of messages',
        options: [
          ['all', 'Everyone: edits and moves'],
          ['moves', 'Everyone: moves only'],
          ['none', 'Nobody'],
        ],
      },
    ],
  },
  {
    title: 'Moving messages',
    items: [
      group('realm_can_move_messages_between_topics_group', 'Who can move messages to another topic'),
      limit('realm_move_messages_within_stream_limit_seconds', 'Time limit for moving messages between topics'),
      group('realm_can_move_messages_between_channels_group', 'Who can move messages to another channel'),
      limit('realm_move_messages_between_streams_limit_seconds', 'Time limit for moving messages between channels'),
      group('realm_can_resolve_topics_group', 'Who can resolve topics'),
    ],
  },
  {
    title: 'Message deletion',
    items: [
      group('realm_can_delete_any_message_group', 'Who can delete any message'),
      group('realm_can_delete_own_message_group', 'Who can delete their own messages'),
      limit('realm_message_content_delete_limit_seconds', 'Time limit for deleting one’s own messages'),
      group('realm_can_set_delete_message_policy_group', 'Who can change the deletion permissions of channels they administer'),
    ],
  },
  {
    title: 'Other permissions',
    items: [
      group('realm_can_add_custom_emoji_group', 'Who can add custom emoji'),
      group('realm_can_mention_many_users_group', 'Who can notify a large number of people with a wildcard mention'),
      group('realm_can_create_bots_group', 'Who can create any bot'),
      group('realm_can_create_write_only_bots_group', 'Who can create bots that send messages into the organization'),
      group('realm_can_summarize_topics_group', 'Who can use topic summaries'),
      group('realm_can_access_all_users_group', 'Who can see all other people', 'Others see only the people they share a channel or conversation with.'),
    ],
  },
  {
    title: 'User identity',
    items: [
      bool('realm_require_unique_names', 'Require unique names'),
      bool('realm_name_changes_disabled', 'Prevent people from changing their names'),
      bool('realm_email_changes_disabled', 'Prevent people from changing their email addresses'),
      bool('realm_avatar_changes_disabled', 'Prevent people from changing their avatars'),
    ],
  },
];
