import type { ParamSchema } from '../http/validate';
import { describePermission, GROUP_SETTING_VALUE_SCHEMA, type GroupPermission } from '../groups/settings';

/**
 * What `POST /register` returns for fetch type `realm`: the organization's settings, facts
 * about this server, and a few values computed per request.
 *
 * The key set is Zulip 12's (feature level 488), but for keys of areas Stoa does not have.
 * Left out on purpose: demo_organization_scheduled_deletion_date, which Zulip sends only for a
 * demo organization (we have none), and keys of other fetch types (realm_billing,
 * realm_user_settings_defaults, realm_users, realm_user_groups, realm_emoji, ...).
 */

export interface RealmSettingDef {
  /** Key in the register response, e.g. 'realm_waiting_period_threshold' (with the realm_ prefix). */
  key: string;
  /** JSON schema of the stored value; PATCH /realm takes most settings in this shape. */
  schema: ParamSchema;
  /** Zulip's default for a new organization; for group-setting keys the NAME of the system group (e.g. 'role:members'), resolved to an ID by the caller. */
  default: boolean | number | string | null;
  groupSetting?: true;
  /** For group settings: which groups the setting may name (what server_supported_permission_settings reports). */
  permission?: GroupPermission;
  /** Only organization owners may change it; administrators may change the rest. */
  ownerOnly?: true;
}

/** The limits on what a group setting may be set to. */
export const SYSTEM_GROUP_NAMES = [
  'role:internet',
  'role:owners',
  'role:administrators',
  'role:moderators',
  'role:fullmembers',
  'role:members',
  'role:everyone',
  'role:nobody',
] as const;
export type SystemGroupName = (typeof SYSTEM_GROUP_NAMES)[number];

/**
 * A group-setting value as register reports it: a group ID, or the members and subgroups of an
 * anonymous group.
 */
const bool: ParamSchema = { type: 'boolean' };

/** A limit in seconds where null means "no limit"; zero is not a valid limit. */
const OPTIONAL_SECONDS: ParamSchema = { type: ['integer', 'null'], minimum: 1 };

/** A channel ID, or -1 when the feature it drives is turned off. */
const CHANNEL_OR_OFF: ParamSchema = { type: 'integer', minimum: -1 };

const WEEK_SECONDS = 7 * 24 * 60 * 60;

function setting(key: string, schema: ParamSchema, value: boolean | number | string | null): RealmSettingDef {
  return { key, schema, default: value };
}

/** Settings that decide who can join or what is kept are the owners' to change. */
function ownersOnly(def: RealmSettingDef): RealmSettingDef {
  return { ...def, ownerOnly: true };
}

interface PermissionOptions {
  nobody: boolean;
  everyone: boolean;
  systemOnly?: readonly SystemGroupName[];
}

function groupSetting(key: string, value: SystemGroupName, options: PermissionOptions): RealmSettingDef {
  return {
    key,
    schema: GROUP_SETTING_VALUE_SCHEMA,
    default: value,
    groupSetting: true,
    permission: {
      requireSystemGroup: options.systemOnly !== undefined,
      // No organization-level permission can be granted to people without an account.
      allowInternetGroup: false,
      allowNobodyGroup: options.nobody,
      allowEveryoneGroup: options.everyone,
      allowedSystemGroups: options.systemOnly ?? [],
    },
  };
}

// Most permissions may be switched off entirely (role:nobody) but never extended to guests.
const MEMBERS_AT_MOST = { nobody: true, everyone: false };
// Permissions that guests may hold too.
const GUESTS_TOO = { nobody: true, everyone: true };
// Permissions somebody must always hold.
const NEVER_NOBODY = { nobody: false, everyone: false };

export const REALM_SETTINGS: readonly RealmSettingDef[] = [
  setting('realm_allow_message_editing', bool, true),
  setting('realm_avatar_changes_disabled', bool, false),
  // A Pygments language name for code blocks without one; empty for none.
  setting('realm_default_code_block_language', { type: 'string' }, ''),
  // Language of automated messages and invitations.
  setting('realm_default_language', { type: 'string', minLength: 1, maxLength: 50 }, 'en'),
  // Register sends this ANDed with settings_send_digest_emails.
  setting('realm_digest_emails_enabled', bool, false),
  // 0 is Monday; digests go out on Tuesdays by default.
  setting('realm_digest_weekday', { type: 'integer', enum: [0, 1, 2, 3, 4, 5, 6] }, 1),
  ownersOnly(setting('realm_disallow_disposable_email_addresses', bool, true)),
  setting('realm_email_changes_disabled', bool, false),
  ownersOnly(setting('realm_emails_restricted_to_domains', bool, false)),
  setting('realm_enable_guest_user_dm_warning', bool, true),
  setting('realm_enable_guest_user_indicator', bool, true),
  // The column defaults to false, but Zulip turns it on when it creates an invitation-only
  // organization, which is what a new organization is.
  setting('realm_enable_read_receipts', bool, true),
  // Web-public channels also need the server-level switch (server_web_public_streams_enabled).
  setting('realm_enable_spectator_access', bool, false),
  // The highest rating of GIFs any GIF picker may show: 0 disabled, 1 Y, 2 G, 3 PG, 4 PG-13,
  // 5 R. Called realm_giphy_rating before feature level 453.
  setting('realm_gif_rating_policy', { type: 'integer', enum: [0, 1, 2, 3, 4, 5] }, 2),
  // Thumbnails in messages at 100, 150 or 200 % of their usual height (level 469).
  setting('realm_media_preview_size', { type: 'integer', enum: [100, 150, 200] }, 100),
  // Whether the notification bot posts channel events (renames, new descriptions, ...) in the
  // channel itself (level 434).
  setting('realm_send_channel_events_messages', bool, true),
  // Where the avatars of new users come from (level 456): 'G' the provider-hosted picture,
  // 'J' a pattern Stoa draws from the account (a Jdenticon), kept as an uploaded avatar is.
  setting('realm_default_avatar_source', { type: 'string', enum: ['G', 'J'] }, 'G'),
  setting('realm_inline_image_preview', bool, true),
  setting('realm_inline_url_embed_preview', bool, false),
  ownersOnly(setting('realm_invite_required', bool, true)),
  // null means "use server_jitsi_server_url".
  setting('realm_jitsi_server_url', { type: ['string', 'null'], maxLength: 200 }, null),
  setting('realm_message_content_allowed_in_email_notifications', bool, true),
  setting('realm_message_content_edit_limit_seconds', OPTIONAL_SECONDS, 600),
  setting('realm_message_content_delete_limit_seconds', OPTIONAL_SECONDS, 600),
  setting('realm_message_edit_history_visibility_policy', { type: 'string', enum: ['all', 'moves', 'none'] }, 'all'),
  setting('realm_move_messages_between_streams_limit_seconds', OPTIONAL_SECONDS, WEEK_SECONDS),
  setting('realm_move_messages_within_stream_limit_seconds', OPTIONAL_SECONDS, WEEK_SECONDS),
  // Days to keep messages; -1 keeps them forever. Zero is not allowed.
  ownersOnly(setting('realm_message_retention_days', { type: 'integer', minimum: -1 }, -1)),
  setting('realm_name_changes_disabled', bool, false),
  setting('realm_require_unique_names', bool, false),
  // Level 409: message content goes only to end-to-end-encrypted push registrations; legacy
  // ones are told "New message" (lib/push/payloads.ts).
  setting('realm_require_e2ee_push_notifications', bool, false),
  setting('realm_send_welcome_emails', bool, true),
  // What the Welcome Bot tells people who join through an invitation (lib/realm/welcome.ts); '' nothing.
  setting('realm_welcome_message_custom_text', { type: 'string', maxLength: 8000 }, ''),
  // Whether messages may use the empty topic; channels with topics_policy 'inherit' follow it.
  setting(
    'realm_topics_policy',
    { type: 'string', enum: ['allow_empty_topic', 'disable_empty_topic'] },
    'allow_empty_topic',
  ),
  // 0 none, 1 Jitsi Meet, 3 Zoom, 4 BigBlueButton, 5 Zoom server-to-server; only the first two
  // are available here (see realm_available_video_chat_providers).
  setting('realm_video_chat_provider', { type: 'integer', enum: [0, 1, 3, 4, 5] }, 1),
  // Days before a member counts as a full member.
  ownersOnly(setting('realm_waiting_period_threshold', { type: 'integer', minimum: 0 }, 0)),
  setting('realm_want_advertise_in_communities_directory', bool, false),
  // 0 unspecified, then business, open source, education (non-profit, for-profit), research,
  // event, non-profit, government, political group, community, personal, other.
  setting('realm_org_type', { type: 'integer', enum: [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000] }, 0),
  // Zulip points these at channels it creates with a new organization; whoever creates ours
  // sets them the same way once those channels exist.
  setting('realm_moderation_request_channel_id', CHANNEL_OR_OFF, -1),
  setting('realm_new_stream_announcements_stream_id', CHANNEL_OR_OFF, -1),
  setting('realm_signup_announcements_stream_id', CHANNEL_OR_OFF, -1),
  setting('realm_zulip_update_announcements_stream_id', CHANNEL_OR_OFF, -1),

  ownersOnly(groupSetting('realm_create_multiuse_invite_group', 'role:administrators', MEMBERS_AT_MOST)),
  groupSetting('realm_can_access_all_users_group', 'role:everyone', {
    nobody: false,
    everyone: true,
    systemOnly: ['role:everyone', 'role:members'],
  }),
  groupSetting('realm_can_add_custom_emoji_group', 'role:members', MEMBERS_AT_MOST),
  groupSetting('realm_can_add_subscribers_group', 'role:members', MEMBERS_AT_MOST),
  groupSetting('realm_can_create_bots_group', 'role:members', MEMBERS_AT_MOST),
  ownersOnly(groupSetting('realm_can_create_groups', 'role:members', MEMBERS_AT_MOST)),
  groupSetting('realm_can_create_public_channel_group', 'role:members', MEMBERS_AT_MOST),
  groupSetting('realm_can_create_private_channel_group', 'role:members', MEMBERS_AT_MOST),
  // Web-public channels are an abuse magnet, so only trusted roles may ever create them.
  groupSetting('realm_can_create_web_public_channel_group', 'role:owners', {
    nobody: true,
    everyone: false,
    systemOnly: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
  }),
  groupSetting('realm_can_create_write_only_bots_group', 'role:members', MEMBERS_AT_MOST),
  groupSetting('realm_can_delete_any_message_group', 'role:administrators', MEMBERS_AT_MOST),
  groupSetting('realm_can_delete_own_message_group', 'role:everyone', GUESTS_TOO),
  ownersOnly(groupSetting('realm_can_invite_users_group', 'role:members', MEMBERS_AT_MOST)),
  ownersOnly(groupSetting('realm_can_manage_all_groups', 'role:owners', NEVER_NOBODY)),
  ownersOnly(groupSetting('realm_can_manage_billing_group', 'role:administrators', NEVER_NOBODY)),
  groupSetting('realm_can_mention_many_users_group', 'role:administrators', GUESTS_TOO),
  groupSetting('realm_can_move_messages_between_channels_group', 'role:members', MEMBERS_AT_MOST),
  groupSetting('realm_can_move_messages_between_topics_group', 'role:everyone', GUESTS_TOO),
  groupSetting('realm_can_resolve_topics_group', 'role:everyone', GUESTS_TOO),
  // Who, besides administrators, may change a channel they administer's deletion permissions
  // and its topics_policy.
  groupSetting('realm_can_set_delete_message_policy_group', 'role:moderators', MEMBERS_AT_MOST),
  groupSetting('realm_can_set_topics_policy_group', 'role:moderators', MEMBERS_AT_MOST),
  groupSetting('realm_can_summarize_topics_group', 'role:everyone', GUESTS_TOO),
  groupSetting('realm_direct_message_initiator_group', 'role:everyone', GUESTS_TOO),
  groupSetting('realm_direct_message_permission_group', 'role:everyone', GUESTS_TOO),
  // Who counts as a workplace user for billing (level 477); Stoa bills nobody, so it only
  // records the choice.
  groupSetting('realm_workplace_users_group', 'role:members', MEMBERS_AT_MOST),
];

/** The GIF ratings an administrator can choose from, even with no GIF picker key configured. */
const GIF_RATINGS = {
  disabled: { name: 'GIF pickers off', id: 0 },
  y: { name: 'Rated Y: for very young audiences', id: 1 },
  g: { name: 'Rated G: for general audiences', id: 2 },
  pg: { name: 'Rated PG: parental guidance suggested', id: 3 },
  'pg-13': { name: 'Rated PG-13: parental guidance for under 13', id: 4 },
  r: { name: 'Rated R: restricted', id: 5 },
};

/** Why a message may be reported, with the name the report gives each reason (register's server_report_message_types). */
export const REPORT_MESSAGE_TYPES: ReadonlyArray<{ key: string; name: string }> = [
  { key: 'spam', name: 'Spam' },
  { key: 'harassment', name: 'Harassment' },
  { key: 'inappropriate', name: 'Inappropriate content' },
  { key: 'norms', name: 'Violates community norms' },
  { key: 'other', name: 'Other reason' },
];
/** Channel folder names and descriptions are at most this long, in Unicode code points. */
export const CHANNEL_FOLDER_NAME_MAX = 60;
export const CHANNEL_FOLDER_DESCRIPTION_MAX = 1024;
/** Zulip stops telling each person they were subscribed when a request subscribes more than this. */
export const MAX_SUBSCRIBED_NOTICES = 100;

/**
 * Keys of register's `realm` bundle that describe this server rather than the organization,
 * with the values a small self-hosted server sends: no file uploads, no push notifications,
 * no Zoom or BigBlueButton, no GIPHY key, no billing, no demo organizations. Where the server
 * runs differently these values must change with it. Values that depend on the running server
 * or on stored settings are in REALM_DYNAMIC_KEYS instead.
 */
export const REALM_SERVER_FACTS: Record<string, unknown> = {
  // Lengths in Unicode code points.
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  max_topic_length: 60,
  max_channel_folder_name_length: CHANNEL_FOLDER_NAME_MAX,
  max_channel_folder_description_length: CHANNEL_FOLDER_DESCRIPTION_MAX,
  // Above this many new subscribers in one request, nobody is told they were subscribed.
  max_bulk_new_subscription_messages: MAX_SUBSCRIBED_NOTICES,
  max_message_length: 10000,
  max_reminder_note_length: 1000,
  server_report_message_types: REPORT_MESSAGE_TYPES,
  max_avatar_file_size_mib: 5,
  max_icon_file_size_mib: 5,
  max_logo_file_size_mib: 5,
  // Zulip 10's server defaults: ping every minute, offline after three missed pings plus slack.
  server_presence_ping_interval_seconds: 60,
  server_presence_offline_threshold_seconds: 200,
  server_typing_started_expiry_period_milliseconds: 45000,
  server_typing_stopped_wait_period_milliseconds: 12000,
  server_typing_started_wait_period_milliseconds: 30000,
  password_min_length: 6,
  password_max_length: 100,
  password_min_guesses: 10000,
  server_min_deactivated_realm_deletion_days: 14,
  server_max_deactivated_realm_deletion_days: null,
  // We send no email, so clients should not offer digest settings.
  settings_send_digest_emails: false,
  server_inline_image_preview: true,
  server_inline_url_embed_preview: true,
  server_avatar_changes_disabled: false,
  server_name_changes_disabled: false,
  server_needs_upgrade: false,
  server_can_summarize_topics: false,
  server_jitsi_server_url: 'https://meet.jit.si',
  development_environment: false,
  // Self-hosted: every feature is available and nothing is billed.
  realm_plan_type: 1,
  zulip_plan_is_not_limited: true,
  // Shown only on a limited plan, which a self-hosted server never is.
  upgrade_text_for_wide_organization_logo: '',
  realm_push_notifications_enabled_end_timestamp: null,
  realm_presence_disabled: false,
  realm_available_video_chat_providers: {
    disabled: { name: 'None', id: 0 },
    jitsi_meet: { name: 'Jitsi Meet', id: 1 },
  },
  // Called gif_rating_options at level 442, and giphy_rating_options before.
  gif_rating_policy_options: GIF_RATINGS,
  // Profile-field templates an administrator can start an "external account" field from.
  realm_default_external_accounts: {
    twitter: { text: 'Twitter', url_pattern: 'https://twitter.com/%(username)s', name: 'Twitter username', hint: '' },
    github: { text: 'GitHub', url_pattern: 'https://github.com/%(username)s', name: 'GitHub username', hint: '' },
  },
};

/**
 * Keys the caller computes for each register call. What each one should be:
 *
 * From the organization row and the server's configuration:
 * - realm_name, realm_description: the organization's name and Markdown description (settings
 *   without a meaningful default; PATCH /realm changes them).
 * - realm_date_created: UNIX seconds when the organization was created.
 * - realm_owner_full_content_access: whether owners may read all private content (level 438),
 *   which only `stoa owner-full-content-access` changes.
 * - realm_uuid: the organization's UUID, made when it is created and kept through an export and
 *   import (level 466).
 * - realm_url, realm_uri: the organization's base URL; realm_uri is the deprecated alias.
 * - realm_bot_domain: the host part of bot email addresses.
 * - realm_icon_url, realm_icon_source: the organization icon, uploaded ('U') or a generated
 *   Gravatar-style one ('G').
 * - realm_logo_url, realm_logo_source, realm_night_logo_url, realm_night_logo_source: the
 *   wide logo (light and dark), uploaded ('U') or Zulip's default ('D').
 * - realm_authentication_methods: {method: {enabled, available}} for each login method the
 *   server supports; for us {"Email": {"enabled": true, "available": true}}.
 * - realm_email_auth_enabled, realm_password_auth_enabled: true while password login works.
 * - realm_push_notifications_enabled: whether mobile push is delivered: true with a push relay.
 * - server_web_public_streams_enabled: the server-level switch for web-public channels.
 * - server_emoji_data_url: absolute URL of the JSON file mapping emoji codes to names.
 * - server_generation: UNIX seconds when this server process started.
 * - event_queue_longpoll_timeout_seconds: client HTTP timeout for GET /events, safely above
 *   the heartbeat interval (Zulip uses 90).
 * - realm_empty_topic_display_name: how clients show the empty topic ("general chat",
 *   translated to realm_default_language).
 * - server_supported_permission_settings: {realm, stream, group} metadata for every group
 *   setting; realmPermissionSettings() builds the realm part.
 *
 * Derived from settings in REALM_SETTINGS, kept for older clients:
 * - jitsi_server_url: realm_jitsi_server_url ?? server_jitsi_server_url.
 * - realm_allow_edit_history: realm_message_edit_history_visibility_policy !== 'none'.
 * - realm_mandatory_topics: realm_topics_policy === 'disable_empty_topic'.
 * - realm_create_public_stream_policy, realm_create_private_stream_policy: the legacy role
 *   code of the system group the setting names (1 members, 2 administrators, 3 full members,
 *   4 moderators; an anonymous or user-defined group maps to the nearest superset).
 * - realm_create_web_public_stream_policy: likewise, with 2 administrators, 4 moderators,
 *   6 nobody, 7 owners.
 * - realm_wildcard_mention_policy: from realm_can_mention_many_users_group, with 1 everyone,
 *   2 members, 3 full members, 5 administrators, 6 nobody, 7 moderators.
 */
export const REALM_DYNAMIC_KEYS: readonly string[] = [
  'realm_name',
  'realm_description',
  'realm_uuid',
  'realm_owner_full_content_access',
  'realm_date_created',
  'realm_url',
  'realm_uri',
  'realm_bot_domain',
  'realm_icon_url',
  'realm_icon_source',
  'realm_logo_url',
  'realm_logo_source',
  'realm_night_logo_url',
  'realm_night_logo_source',
  'realm_authentication_methods',
  'realm_email_auth_enabled',
  'realm_password_auth_enabled',
  'realm_push_notifications_enabled',
  'server_web_public_streams_enabled',
  'server_emoji_data_url',
  'max_file_upload_size_mib',
  'realm_upload_quota_mib',
  'server_thumbnail_formats',
  'server_generation',
  'event_queue_longpoll_timeout_seconds',
  'realm_empty_topic_display_name',
  'server_supported_permission_settings',
  'jitsi_server_url',
  'realm_allow_edit_history',
  'realm_mandatory_topics',
  'realm_create_public_stream_policy',
  'realm_create_private_stream_policy',
  'realm_create_web_public_stream_policy',
  'realm_wildcard_mention_policy',
];

/** Every key register returns for fetch type `realm`. */
export const REALM_FETCH_KEYS: readonly string[] = [
  ...REALM_SETTINGS.map((s) => s.key),
  ...Object.keys(REALM_SERVER_FACTS),
  ...REALM_DYNAMIC_KEYS,
];

/** The `realm` part of server_supported_permission_settings, keyed by setting name without the realm_ prefix. */
export function realmPermissionSettings(): Record<string, Record<string, unknown>> {
  const result: Record<string, Record<string, unknown>> = {};
  for (const s of REALM_SETTINGS) {
    if (s.permission) result[s.key.replace(/^realm_/, '')] = describePermission(s.permission, s.default as string, null);
  }
  return result;
}
