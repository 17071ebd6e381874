/**
 * The shape of the data export that Zulip's `manage.py import` reads, as far as Stoa writes
 * it: file names, table names, the fields of each row, and the value mappings between Stoa's
 * rows and Zulip's. Kept in one place so that an importer can read the same tables back.
 *
 * Facts here come from Zulip 10.x's export and import code (zerver/lib/export.py and
 * zerver/lib/import_realm.py) and its models:
 * - the importer builds each model with `Model(**row)`, so a row may carry only fields that
 *   exist on Zulip 10's model (an unknown key fails the import), and every field it remaps
 *   (foreign keys, dates) must be present, null where there is no value;
 * - foreign keys are named without `_id` (`sender`, `recipient`, `realm`, ...), as Django's
 *   model_to_dict writes them; dates are UNIX seconds as floats;
 * - the tables listed in REQUIRED_REALM_TABLES are read unconditionally, so they must exist
 *   even when empty.
 * Left out on purpose: drafts, push devices and widget submessages, which Zulip does not
 * export either.
 */

import { CHANNEL_GROUP_SETTINGS, RecipientType, SUBSCRIPTION_SETTINGS as CHANNEL_SUBSCRIPTION_SETTINGS } from '../channels/queries';
import { GROUP_SETTINGS } from '../groups/queries';
import { Flag } from '../messages/flags';

/** The Zulip release whose import this export is written for; migration_status.json names it. */
export const ZULIP_TARGET_VERSION = '10.2';

/** Files and folders inside the export folder (the tarball holds one folder, zulip-export-*). */
export const EXPORT_FILES = {
  migrationStatus: 'migration_status.json',
  realm: 'realm.json',
  attachment: 'attachment.json',
  analytics: 'analytics.json',
  stats: 'stats.json',
  /** messages-000001.json, messages-000002.json, ...: read until the first missing number. */
  messages: (n: number) => `messages-${String(n).padStart(6, '0')}.json`,
} as const;

/** Folders each holding records.json and the files it lists, paths relative to the folder. */
export const FILE_FOLDERS = ['avatars', 'uploads', 'emoji', 'realm_icons'] as const;
export type FileFolder = (typeof FILE_FOLDERS)[number];

/** Messages per messages-NNNNNN.json file, as Zulip batches them. */
export const MESSAGES_PER_FILE = 1000;

/** Tables of realm.json the importer reads without checking that they exist. */
export const REQUIRED_REALM_TABLES = [
  'zerver_realm',
  'zerver_client',
  'zerver_userprofile',
  'zerver_userprofile_mirrordummy',
  'zerver_userprofile_crossrealm',
  'zerver_stream',
  'zerver_huddle',
  'zerver_recipient',
  'zerver_subscription',
  'zerver_realmauthenticationmethod',
  'zerver_defaultstream',
  'zerver_realmemoji',
  'zerver_realmdomain',
  'zerver_realmfilter',
  'zerver_realmplayground',
  'zerver_userpresence',
  'zerver_useractivity',
  'zerver_useractivityinterval',
  'zerver_customprofilefield',
  'zerver_customprofilefieldvalue',
  'zerver_reaction',
] as const;

/** Optional tables of realm.json that Stoa has data for. */
export const OPTIONAL_REALM_TABLES = [
  'zerver_usergroup',
  'zerver_namedusergroup',
  'zerver_usergroupmembership',
  'zerver_groupgroupmembership',
  'zerver_presencesequence',
  'zerver_alertword',
  'zerver_usertopic',
  'zerver_muteduser',
  'zerver_userstatus',
  'zerver_scheduledmessage',
  'zerver_savedsnippet',
  'zerver_service',
  'zerver_realmuserdefault',
] as const;

/**
 * Fields the importer turns from UNIX seconds back into datetimes (Zulip's DATE_FIELDS, for
 * the tables Stoa writes). Each must be present in every row, null where unknown.
 */
export const DATE_FIELDS: Record<string, readonly string[]> = {
  zerver_realm: ['date_created'],
  zerver_userprofile: ['date_joined', 'last_login', 'last_reminder'],
  zerver_userprofile_mirrordummy: ['date_joined', 'last_login', 'last_reminder'],
  zerver_stream: ['date_created'],
  zerver_namedusergroup: ['date_created'],
  zerver_message: ['last_edit_time', 'date_sent'],
  zerver_attachment: ['create_time'],
  zerver_muteduser: ['date_muted'],
  zerver_usertopic: ['last_updated'],
  zerver_userstatus: ['timestamp'],
  zerver_userpresence: ['last_active_time', 'last_connected_time'],
  zerver_scheduledmessage: ['scheduled_timestamp'],
  zerver_savedsnippet: ['date_created'],
};

/**
 * Foreign keys per table: field -> the table whose ids it holds. The tests check every value
 * names a row that exists; an importer maps ids through the same table.
 */
export const FOREIGN_KEYS: Record<string, Record<string, string>> = {
  zerver_userprofile: {
    realm: 'zerver_realm',
    bot_owner: 'zerver_userprofile',
    default_sending_stream: 'zerver_stream',
    default_events_register_stream: 'zerver_stream',
  },
  zerver_stream: { realm: 'zerver_realm', creator: 'zerver_userprofile' },
  zerver_subscription: { user_profile: 'zerver_userprofile', recipient: 'zerver_recipient' },
  zerver_defaultstream: { realm: 'zerver_realm', stream: 'zerver_stream' },
  zerver_realmemoji: { realm: 'zerver_realm', author: 'zerver_userprofile' },
  zerver_realmfilter: { realm: 'zerver_realm' },
  zerver_realmplayground: { realm: 'zerver_realm' },
  zerver_realmauthenticationmethod: { realm: 'zerver_realm' },
  zerver_usergroup: { realm: 'zerver_realm' },
  zerver_namedusergroup: { usergroup_ptr: 'zerver_usergroup', realm_for_sharding: 'zerver_realm', creator: 'zerver_userprofile' },
  zerver_usergroupmembership: { user_group: 'zerver_usergroup', user_profile: 'zerver_userprofile' },
  zerver_groupgroupmembership: { supergroup: 'zerver_usergroup', subgroup: 'zerver_usergroup' },
  zerver_customprofilefield: { realm: 'zerver_realm' },
  zerver_customprofilefieldvalue: { user_profile: 'zerver_userprofile', field: 'zerver_customprofilefield' },
  zerver_userpresence: { user_profile: 'zerver_userprofile', realm: 'zerver_realm' },
  zerver_presencesequence: { realm: 'zerver_realm' },
  zerver_usertopic: { user_profile: 'zerver_userprofile', stream: 'zerver_stream', recipient: 'zerver_recipient' },
  zerver_muteduser: { user_profile: 'zerver_userprofile', muted_user: 'zerver_userprofile' },
  zerver_userstatus: { user_profile: 'zerver_userprofile', client: 'zerver_client' },
  zerver_alertword: { user_profile: 'zerver_userprofile', realm: 'zerver_realm' },
  zerver_reaction: { user_profile: 'zerver_userprofile', message: 'zerver_message' },
  zerver_message: { sender: 'zerver_userprofile', recipient: 'zerver_recipient', sending_client: 'zerver_client', realm: 'zerver_realm' },
  zerver_usermessage: { user_profile: 'zerver_userprofile', message: 'zerver_message' },
  zerver_attachment: { owner: 'zerver_userprofile', realm: 'zerver_realm' },
  zerver_scheduledmessage: {
    sender: 'zerver_userprofile',
    recipient: 'zerver_recipient',
    sending_client: 'zerver_client',
    stream: 'zerver_stream',
    realm: 'zerver_realm',
    delivered_message: 'zerver_message',
  },
  zerver_savedsnippet: { realm: 'zerver_realm', user_profile: 'zerver_userprofile' },
  zerver_service: { user_profile: 'zerver_userprofile' },
  zerver_realmuserdefault: { realm: 'zerver_realm' },
};

/**
 * The table of direct message groups: Zulip 10 writes zerver_huddle (its DirectMessageGroup
 * model kept the old table name); a later rename gives zerver_directmessagegroup. An importer
 * reads whichever is there.
 */
export const DIRECT_MESSAGE_GROUP_TABLES = ['zerver_huddle', 'zerver_directmessagegroup'] as const;

/** Zulip's Recipient.type values, which Stoa's recipients table uses too. */
export { RecipientType };

/**
 * Zulip's UserMessage flag bits, in Zulip's order: bit i is ALL_FLAGS[i]. Stoa numbers its
 * bits differently (lib/messages/flags.ts), so flags are translated by name.
 */
export const ZULIP_USER_MESSAGE_FLAGS = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'force_expand',
  'force_collapse',
  'has_alert_word',
  'historical',
  'is_private',
  'active_mobile_push_notification',
] as const;

/** Zulip's flags_mask for a set of flag names; names Zulip does not know are dropped. */
export function zulipFlagsMask(names: Iterable<string>): number {
  let mask = 0;
  for (const name of names) {
    const bit = (ZULIP_USER_MESSAGE_FLAGS as readonly string[]).indexOf(name);
    if (bit >= 0) mask |= 1 << bit;
  }
  return mask;
}

/** The flag names of a Zulip flags_mask (the importer's direction). */
export function zulipFlagNames(mask: number): string[] {
  return ZULIP_USER_MESSAGE_FLAGS.filter((_, bit) => (mask & (1 << bit)) !== 0);
}

/** Stoa's flag bits as Zulip's flags_mask. */
export function zulipFlagsOfBits(bits: number): number {
  return zulipFlagsMask((Object.keys(Flag) as Array<keyof typeof Flag>).filter((name) => (bits & Flag[name]) !== 0));
}

/** Zulip's flags_mask as Stoa's flag bits; flags Stoa does not keep (group_mentioned, ...) are dropped. */
export function stoaFlagBits(mask: number): number {
  let bits = 0;
  for (const name of zulipFlagNames(mask)) if (name in Flag) bits |= Flag[name as keyof typeof Flag];
  return bits;
}

/** Zulip's reaction types by Stoa's name for them (Stoa's -> Zulip's). */
export const ZULIP_REACTION_TYPE: Record<string, string> = {
  unicode_emoji: 'unicode_emoji',
  realm_emoji: 'realm_emoji',
  service_extra_emoji: 'zulip_extra_emoji',
};

/** The same, the other way: Stoa's reaction type by Zulip's name. */
export const STOA_REACTION_TYPE: Record<string, string> = Object.fromEntries(
  Object.entries(ZULIP_REACTION_TYPE).map(([stoa, zulip]) => [zulip, stoa]),
);

/**
 * Stoa keeps edit history as clients see it (newest first); Zulip stores the same entries,
 * with prev_rendered_content_version beside a rendered previous content.
 */
export function zulipEditHistory(text: string | null): string | null {
  if (!text) return null;
  const entries = JSON.parse(text) as Array<Record<string, unknown>>;
  return JSON.stringify(
    entries.map((entry) => ({
      ...entry,
      ...(entry.prev_rendered_content !== undefined ? { prev_rendered_content_version: RENDERED_CONTENT_VERSION } : {}),
    })),
  );
}

/** Zulip's edit history entries as Stoa keeps them: without the rendering version. */
export function stoaEditHistory(entries: ReadonlyArray<Record<string, unknown>>): string | null {
  if (entries.length === 0) return null;
  return JSON.stringify(entries.map(({ prev_rendered_content_version: _version, ...entry }) => entry));
}

/** Zulip's RealmExport.type values, which the API's export_type uses. */
export const ExportType = { PUBLIC: 1, FULL_WITH_CONSENT: 2, FULL_WITHOUT_CONSENT: 3 } as const;
export type ExportTypeValue = (typeof ExportType)[keyof typeof ExportType];

/** The API's names of the export types (level 449), by Zulip's RealmExport.type value. */
export const EXPORT_TYPE_NAMES: Record<ExportTypeValue, string> = {
  [ExportType.PUBLIC]: 'public',
  [ExportType.FULL_WITH_CONSENT]: 'full_with_consent',
  [ExportType.FULL_WITHOUT_CONSENT]: 'full_without_consent',
};

/**
 * Zulip's cross-realm system bots are found on the importing server by these emails, whatever
 * address the exporting server gave them.
 */
export const CROSS_REALM_BOT_EMAIL = { notificationBot: 'notification-bot@zulip.com' } as const;

/** The authentication method a password-only server has, by Zulip's backend name. */
export const EMAIL_AUTH_BACKEND = 'Email';

/** Zulip's Message rendering version for content rendered by its Markdown processor. */
export const RENDERED_CONTENT_VERSION = 1;

/**
 * Organization settings as Zulip's Realm model names them, from Stoa's register keys. The
 * channel settings are foreign keys (null when off); every group setting of Zulip 10 is a
 * foreign key into zerver_usergroup and must be present when user groups are exported.
 */
export const REALM_CHANNEL_SETTINGS: Record<string, string> = {
  realm_moderation_request_channel_id: 'moderation_request_channel',
  realm_new_stream_announcements_stream_id: 'new_stream_announcements_stream',
  realm_signup_announcements_stream_id: 'signup_announcements_stream',
  realm_zulip_update_announcements_stream_id: 'zulip_update_announcements_stream',
};

/** Register keys whose Zulip 10 Realm field (realmField) holds the same value. */
export const REALM_PLAIN_SETTINGS = [
  'realm_allow_message_editing',
  'realm_avatar_changes_disabled',
  'realm_default_code_block_language',
  'realm_default_language',
  'realm_digest_emails_enabled',
  'realm_digest_weekday',
  'realm_disallow_disposable_email_addresses',
  'realm_email_changes_disabled',
  'realm_emails_restricted_to_domains',
  'realm_enable_guest_user_dm_warning',
  'realm_enable_guest_user_indicator',
  'realm_enable_read_receipts',
  'realm_enable_spectator_access',
  'realm_gif_rating_policy',
  'realm_inline_image_preview',
  'realm_inline_url_embed_preview',
  'realm_invite_required',
  'realm_jitsi_server_url',
  'realm_message_content_allowed_in_email_notifications',
  'realm_message_content_edit_limit_seconds',
  'realm_message_content_delete_limit_seconds',
  'realm_move_messages_between_streams_limit_seconds',
  'realm_move_messages_within_stream_limit_seconds',
  'realm_message_retention_days',
  'realm_name_changes_disabled',
  'realm_require_unique_names',
  'realm_send_welcome_emails',
  'realm_video_chat_provider',
  'realm_waiting_period_threshold',
  'realm_want_advertise_in_communities_directory',
  'realm_org_type',
] as const;

/** The API's message_edit_history_visibility_policy names, by Zulip's stored integer. */
export const EDIT_HISTORY_VISIBILITY = { all: 1, moves: 2, none: 3 } as const;

/** Zulip 10's organization group settings (Realm.REALM_PERMISSION_GROUP_SETTINGS), by register key. */
export const REALM_GROUP_SETTINGS = [
  'realm_create_multiuse_invite_group',
  'realm_can_access_all_users_group',
  'realm_can_add_custom_emoji_group',
  'realm_can_add_subscribers_group',
  'realm_can_create_bots_group',
  'realm_can_create_groups',
  'realm_can_create_public_channel_group',
  'realm_can_create_private_channel_group',
  'realm_can_create_web_public_channel_group',
  'realm_can_create_write_only_bots_group',
  'realm_can_delete_any_message_group',
  'realm_can_delete_own_message_group',
  'realm_can_invite_users_group',
  'realm_can_manage_all_groups',
  'realm_can_manage_billing_group',
  'realm_can_mention_many_users_group',
  'realm_can_move_messages_between_channels_group',
  'realm_can_move_messages_between_topics_group',
  'realm_can_resolve_topics_group',
  'realm_can_summarize_topics_group',
  'realm_direct_message_initiator_group',
  'realm_direct_message_permission_group',
] as const;

/** The Zulip Realm field of a register key: the key without its `realm_` prefix. */
export function realmField(key: string): string {
  return ZULIP_10_REALM_FIELDS[key] ?? key.replace(/^realm_/, '');
}

/** Settings Zulip renamed after 10: their Zulip 10 Realm field, by Stoa's (Zulip 12's) register key. */
const ZULIP_10_REALM_FIELDS: Record<string, string> = { realm_gif_rating_policy: 'giphy_rating' };

/**
 * Zulip 10's channel group settings (Stream.stream_permission_group_settings), which are
 * Stoa's column names without `_id`. Stoa's newer channel permissions have no Zulip 10 field.
 */
export const STREAM_GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_remove_subscribers_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;

/** Zulip 10's user group settings (NamedUserGroup.GROUP_PERMISSION_SETTINGS): the same as Stoa's. */
export const USER_GROUP_SETTINGS = GROUP_SETTINGS;

/**
 * Personal settings that Zulip keeps on its UserProfile under the same names as Stoa's
 * (lib/users/settings.ts), except those Stoa keeps on the user row itself.
 */
export const USER_ROW_SETTINGS: ReadonlySet<string> = new Set(['timezone', 'email_address_visibility']);

/**
 * A subscriber's settings that Zulip's Subscription has under the same name; the color, the
 * one other, is exported apart since it always has a value.
 */
export const SUBSCRIPTION_SETTINGS = CHANNEL_SUBSCRIPTION_SETTINGS.filter((name) => name !== 'color');

/** Personal settings Zulip added after 10, which a Zulip 10 UserProfile row has no field for. */
const USER_SETTINGS_AFTER_ZULIP_10 = new Set([
  'resolved_topic_notice_auto_read_policy',
  'web_left_sidebar_unreads_count_summary',
  'web_left_sidebar_show_channel_folders',
  'web_inbox_show_channel_folders',
]);

/**
 * A personal setting as a Zulip 10 UserProfile row holds it, or undefined for a setting Zulip 10
 * does not have. Zulip 10 called the Recent conversations home view 'recent_topics'.
 */
export function zulip10UserSetting(name: string, value: unknown): { value: unknown } | undefined {
  if (USER_SETTINGS_AFTER_ZULIP_10.has(name)) return undefined;
  return { value: name === 'web_home_view' && value === 'recent' ? 'recent_topics' : value };
}

/**
 * The fields each exported row carries: fields of Zulip 10's models (by model_to_dict's
 * names, foreign keys without `_id`). The importer builds models from these keys, so a field
 * that Zulip 10 does not have must never appear here; tests check rows against this list.
 * Rows of zerver_userprofile may carry personal settings too (USER_SETTINGS' names, which are
 * Zulip's UserProfile fields), and subscriptions their notification settings.
 */
export const ZULIP_FIELDS: Record<string, readonly string[]> = {
  zerver_realm: [
    'id', 'name', 'string_id', 'description', 'date_created', 'deactivated', 'uuid',
    ...REALM_PLAIN_SETTINGS.map(realmField),
    'message_edit_history_visibility_policy', 'mandatory_topics',
    ...Object.values(REALM_CHANNEL_SETTINGS),
    ...REALM_GROUP_SETTINGS.map(realmField),
  ],
  zerver_client: ['id', 'name'],
  zerver_userprofile: [
    'id', 'realm', 'email', 'delivery_email', 'full_name', 'is_active', 'is_bot', 'bot_type', 'bot_owner', 'role',
    'date_joined', 'last_login', 'last_reminder', 'is_mirror_dummy', 'can_create_users', 'can_change_user_emails',
    'tos_version', 'timezone', 'avatar_source', 'avatar_version', 'email_address_visibility', 'default_sending_stream',
    'default_events_register_stream', 'default_all_public_streams', 'last_active_message_id', 'long_term_idle',
    'recipient', 'user_permissions', 'groups',
  ],
  zerver_userprofile_crossrealm: ['id', 'email', 'recipient_id'],
  zerver_stream: [
    'id', 'realm', 'name', 'description', 'rendered_description', 'date_created', 'creator', 'deactivated',
    'invite_only', 'is_web_public', 'history_public_to_subscribers', 'message_retention_days', 'first_message_id',
    'recipient', ...STREAM_GROUP_SETTINGS,
  ],
  zerver_huddle: ['id', 'huddle_hash', 'group_size', 'recipient'],
  zerver_recipient: ['id', 'type', 'type_id'],
  zerver_subscription: ['id', 'user_profile', 'recipient', 'active', 'is_user_active', 'color', ...SUBSCRIPTION_SETTINGS],
  zerver_realmauthenticationmethod: ['id', 'realm', 'name'],
  zerver_defaultstream: ['id', 'realm', 'stream'],
  zerver_realmemoji: ['id', 'realm', 'author', 'name', 'file_name', 'is_animated', 'deactivated'],
  zerver_realmdomain: ['id', 'realm', 'domain', 'allow_subdomains'],
  zerver_botstoragedata: ['id', 'bot_profile', 'key', 'value'],
  zerver_realmfilter: ['id', 'realm', 'pattern', 'url_template', 'order'],
  zerver_realmplayground: ['id', 'realm', 'name', 'pygments_language', 'url_template'],
  zerver_userpresence: ['id', 'user_profile', 'realm', 'last_active_time', 'last_connected_time', 'last_update_id'],
  zerver_presencesequence: ['id', 'realm', 'last_update_id'],
  zerver_customprofilefield: [
    'id', 'realm', 'name', 'hint', 'field_type', 'field_data', 'order', 'display_in_profile_summary', 'required', 'editable_by_user',
  ],
  zerver_customprofilefieldvalue: ['id', 'user_profile', 'field', 'value', 'rendered_value'],
  zerver_reaction: ['id', 'user_profile', 'message', 'emoji_name', 'emoji_code', 'reaction_type'],
  zerver_usergroup: ['id', 'realm'],
  zerver_namedusergroup: [
    'id', 'usergroup_ptr', 'realm_for_sharding', 'name', 'description', 'is_system_group', 'deactivated', 'date_created',
    'creator', ...USER_GROUP_SETTINGS,
  ],
  zerver_usergroupmembership: ['id', 'user_group', 'user_profile'],
  zerver_groupgroupmembership: ['id', 'supergroup', 'subgroup'],
  zerver_usertopic: ['id', 'user_profile', 'stream', 'recipient', 'topic_name', 'last_updated', 'visibility_policy'],
  zerver_muteduser: ['id', 'user_profile', 'muted_user', 'date_muted'],
  zerver_userstatus: ['id', 'user_profile', 'timestamp', 'client', 'status_text', 'emoji_name', 'emoji_code', 'reaction_type'],
  zerver_alertword: ['id', 'user_profile', 'realm', 'word'],
  zerver_message: [
    'id', 'sender', 'recipient', 'realm', 'subject', 'content', 'rendered_content', 'rendered_content_version',
    'date_sent', 'sending_client', 'last_edit_time', 'edit_history', 'has_attachment', 'has_image', 'has_link',
    'is_channel_message',
  ],
  zerver_usermessage: ['id', 'user_profile', 'message', 'flags_mask'],
  zerver_attachment: [
    'id', 'file_name', 'path_id', 'realm', 'owner', 'create_time', 'size', 'content_type', 'is_realm_public',
    'is_web_public', 'messages', 'scheduled_messages',
  ],
  zerver_scheduledmessage: [
    'id', 'sender', 'recipient', 'subject', 'content', 'rendered_content', 'sending_client', 'stream', 'realm',
    'scheduled_timestamp', 'read_by_sender', 'delivered', 'delivered_message', 'has_attachment', 'failed',
    'failure_message', 'delivery_type',
  ],
  zerver_savedsnippet: ['id', 'realm', 'user_profile', 'title', 'content', 'date_created'],
  zerver_service: ['id', 'name', 'user_profile', 'base_url', 'token', 'interface'],
  // Besides these, every personal setting Zulip 10 has (zulip10UserSetting), except the timezone.
  zerver_realmuserdefault: ['id', 'realm'],
};

/** Zulip's ScheduledMessage.delivery_type values: 1 sends the message later, 2 is a reminder. */
export const ScheduledDeliveryType = { SEND_LATER: 1, REMIND: 2 } as const;

/**
 * Stoa's own file in the export folder: what Zulip's format has no place for, so that a move
 * from one Stoa to another through an export keeps it. Zulip's importer reads only the files
 * it knows, and passes this one by.
 */
export const STOA_EXTRAS_FILE = 'stoa.json';

/** How a column of STOA_EXTRA_TABLES is checked when read back: `?` allows null. */
export type ExtraColumn = 'int' | 'int?' | 'str' | 'str?' | 'num';

/**
 * Tables of stoa.json, each copied row by row with these columns of Stoa's table of the same
 * name: the export selects them, the import checks and inserts them. Drafts, reminders,
 * navigation views, onboarding steps and which settings a user has changed are private data,
 * exported as the other private tables are. Scheduled messages go in Zulip's
 * zerver_scheduledmessage; here are only those Zulip 10.2 cannot hold: reminders (its
 * ScheduledMessage has no field for the message a reminder is about, and its delivery worker
 * refuses a reminder) and direct messages to a group that the export leaves out.
 * Devices and push tokens stay behind: they belong to logins, which an import ends (every
 * API key is made anew), and a channel's email token is a credential like a bot's.
 */
export const STOA_EXTRA_TABLES = {
  channel_folders: { id: 'int', name: 'str', description: 'str', rendered_description: 'str', date_created: 'int', creator_id: 'int?', is_archived: 'int', position: 'int' },
  drafts: { id: 'int', user_id: 'int', type: 'str', to_ids: 'str', topic: 'str', content: 'str', last_edit_time: 'num' },
  scheduled_messages: {
    id: 'int', sender_id: 'int', type: 'str', to_ids: 'str', topic: 'str', content: 'str', rendered_content: 'str',
    sending_client: 'str', scheduled_timestamp: 'int', read_by_sender: 'int', delivered: 'int', delivered_message_id: 'int?',
    failed: 'int', failure_message: 'str?', reminder_target_message_id: 'int?', reminder_note: 'str?',
  },
  navigation_views: { id: 'int', user_id: 'int', fragment: 'str', is_pinned: 'int', name: 'str?' },
  onboarding_steps_seen: { user_id: 'int', step: 'str', timestamp: 'int' },
  user_settings_edited: { user_id: 'int', name: 'str' },
  default_stream_groups: { id: 'int', name: 'str', description: 'str' },
  default_stream_group_channels: { group_id: 'int', stream_id: 'int' },
  submessages: { id: 'int', message_id: 'int', sender_id: 'int', msg_type: 'str', content: 'str' },
} as const satisfies Record<string, Record<string, ExtraColumn>>;
export type StoaExtraTable = keyof typeof STOA_EXTRA_TABLES;

/**
 * Tables that earlier exports wrote into stoa.json and now go in Zulip's zerver_savedsnippet
 * and zerver_service: still read from such an export. An outgoing-webhook bot's token is a
 * credential, made anew on import as Zulip does.
 */
export const EARLIER_STOA_EXTRA_TABLES = {
  saved_snippets: { id: 'int', user_id: 'int', title: 'str', content: 'str', date_created: 'int' },
  bot_services: { bot_id: 'int', name: 'str', base_url: 'str', interface: 'int' },
} as const satisfies Record<string, Record<string, ExtraColumn>>;

/** Columns of a channel that Zulip 10's Stream has no field for. */
export const STREAM_EXTRA_COLUMNS: Record<string, ExtraColumn> = {
  topics_policy: 'str',
  folder_id: 'int?',
  ...Object.fromEntries(
    CHANNEL_GROUP_SETTINGS.filter((s) => !(STREAM_GROUP_SETTINGS as readonly string[]).includes(s)).map((s) => [`${s}_id`, 'int' as const]),
  ),
};

/**
 * Columns of Stoa's rows that Zulip 10's tables have no field for (levels 433, 455, 471 and
 * 478 added them to Zulip 12's), by table: written beside each row's ID, and set on the
 * imported row of that ID. Zulip 10's importer refuses fields it does not know, so they
 * cannot go in realm.json.
 */
export const EXTRA_COLUMNS = {
  users: { is_imported_stub: 'int', joins_at_first_login: 'int' },
  custom_profile_fields: { use_for_user_matching: 'int' },
  realm_linkifiers: { example_input: 'str?', reverse_template: 'str?', alternative_url_templates: 'str' },
} as const satisfies Record<string, Record<string, ExtraColumn>>;
export type ExtraColumnsTable = keyof typeof EXTRA_COLUMNS;

/** What stoa.json holds. */
export interface StoaExtras {
  /**
   * The organization's defaults for new users' settings that Zulip 10's RealmUserDefault has no
   * field for, by name, where they differ from Stoa's defaults (the rest are in
   * zerver_realmuserdefault).
   */
  realm_user_settings_defaults: Record<string, unknown>;
  /**
   * The server's own bots as this server names them, by ID: zerver_userprofile_crossrealm
   * has each by its name at Zulip's domain only, and the import looks them up here.
   */
  system_bots: Array<{ id: number; email: string; full_name: string; date_joined_ms: number }>;
  /** Per channel, by its ID: the columns of STREAM_EXTRA_COLUMNS. */
  streams: Array<Record<string, unknown>>;
  /** Per table of EXTRA_COLUMNS, by row ID: those columns. */
  columns: Record<ExtraColumnsTable, Array<Record<string, unknown>>>;
  tables: Record<StoaExtraTable, Array<Record<string, unknown>>>;
}

/** The shape of migration_status.json. */
export interface MigrationStatus {
  zulip_version: string;
  /**
   * Zulip compares each app's applied migrations with the importing server's. Stoa has none
   * of Zulip's: an app missing from the export is only warned about, not refused, and the
   * major version must match ZULIP_TARGET_VERSION's.
   */
  migrations_by_app: Record<string, string[]>;
}

/** One entry of a records.json. */
export type FileRecord = Record<string, unknown> & { path: string; s3_path: string };

/** What a whole export holds, before it is written out. */
export interface ZulipExport {
  realm: Record<string, unknown>;
  messageFiles: Array<{ zerver_message: Record<string, unknown>[]; zerver_usermessage: Record<string, unknown>[] }>;
  attachment: { zerver_attachment: Record<string, unknown>[] };
  /** records.json of each folder, and where each listed file comes from on disk. */
  files: Record<FileFolder, { records: FileRecord[]; sources: Map<string, string> }>;
  stoa: StoaExtras;
}
