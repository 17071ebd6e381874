import type { ParamSchema } from '../http/validate';

/**
 * The personal settings of a user: what `PATCH /settings` changes, what `POST /register`
 * returns in `user_settings`, and what a fresh account starts with.
 *
 * Names, types, allowed values and defaults follow Zulip 12 (feature level 488).
 */
export interface UserSettingDef {
  /** Setting name exactly as in PATCH /settings and register's user_settings. */
  name: string;
  /** JSON schema the PATCH /settings parameter value must satisfy (after JSON decoding; strings arrive raw). */
  schema: ParamSchema;
  /** Zulip's default for a new user. */
  default: boolean | number | string | null;
}

const bool: ParamSchema = { type: 'boolean' };

function oneOfInts(...values: number[]): ParamSchema {
  return { type: 'integer', enum: values };
}

function oneOfStrings(...values: string[]): ParamSchema {
  return { type: 'string', enum: values };
}

/** The four topic-visibility triggers shared by the automatic follow and unmute policies. */
const TOPIC_POLICY = oneOfInts(1, 2, 3, 4);

/** Zulip stores these in small unsigned columns; it does not bound them further. */
const SMALL_UNSIGNED: ParamSchema = { type: 'integer', minimum: 0, maximum: 32767 };

/** Batching email notifications for more than a week is refused. */
const WEEK_SECONDS = 7 * 24 * 60 * 60;

/** Sound files a stock server offers; a client may also pick 'none' to stay silent. */
export const NOTIFICATION_SOUNDS: readonly string[] = [
  'ascend',
  'beep_boop',
  'bink',
  'bright',
  'brlip',
  'chime',
  'deep tom',
  'ding',
  'double tap',
  'down',
  'dry bongos',
  'dutdut',
  'fast ascend',
  'flute',
  'friendly',
  'kick roll',
  'loud tintong',
  'metallic snare',
  'pan',
  'shaker',
  'simple',
  'stairs',
  'subtle',
  'swish',
  'tintong',
  'up',
  'wood block',
  'zaping',
  'zing',
  'zulip',
];

/** Whether PATCH /settings may set `notification_sound` to this value. */
export function isValidNotificationSound(sound: string): boolean {
  return sound === 'none' || NOTIFICATION_SOUNDS.includes(sound);
}

/** Emoji sets in the order Zulip offers them, with the label shown in a settings menu. */
const EMOJISETS: readonly { key: string; text: string }[] = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
  { key: 'google-blob', text: 'Google blobs' },
];

// Ordered as zulip.yaml lists register's user_settings object, so the two are easy to compare.
export const USER_SETTINGS: readonly UserSettingDef[] = [
  { name: 'twenty_four_hour_time', schema: bool, default: false },
  // 1 always, 2 only in conversation views, 3 never.
  { name: 'web_mark_read_on_scroll_policy', schema: oneOfInts(1, 2, 3), default: 1 },
  // What opening a channel shows: 1 its top topic, 2 its whole feed, 3 its list of topics,
  // 4 its top unread topic.
  { name: 'web_channel_default_view', schema: oneOfInts(1, 2, 3, 4), default: 1 },
  { name: 'starred_message_counts', schema: bool, default: true },
  { name: 'receives_typing_notifications', schema: bool, default: true },
  { name: 'web_suggest_update_timezone', schema: bool, default: true },
  { name: 'fluid_layout_width', schema: bool, default: false },
  { name: 'high_contrast_mode', schema: bool, default: false },
  // The comfortable density that replaced dense_mode; the compact pair is 14 px / 122 %.
  { name: 'web_font_size_px', schema: SMALL_UNSIGNED, default: 16 },
  { name: 'web_line_height_percent', schema: SMALL_UNSIGNED, default: 140 },
  // 1 follows the system, 2 dark, 3 light.
  { name: 'color_scheme', schema: oneOfInts(1, 2, 3), default: 1 },
  { name: 'translate_emoticons', schema: bool, default: false },
  { name: 'display_emoji_reaction_users', schema: bool, default: true },
  // A language code the server has translations for; the view checks membership.
  {
    name: 'default_language',
    schema: { type: 'string', minLength: 1, maxLength: 50 },
    default: 'en',
  },
  // The Recent conversations view was 'recent_topics' before feature level 454.
  {
    name: 'web_home_view',
    // 'recent_topics' is the Recent conversations view's name before level 454; clients at
    // the level Stoa claims still send it, and it is stored as 'recent'.
    schema: oneOfStrings('recent', 'recent_topics', 'inbox', 'all_messages'),
    default: 'inbox',
  },
  { name: 'web_escape_navigates_to_home_view', schema: bool, default: true },
  // Kept only so old clients round-trip it; no current client shows it.
  { name: 'left_side_userlist', schema: bool, default: false },
  { name: 'emojiset', schema: oneOfStrings(...EMOJISETS.map((e) => e.key)), default: 'google' },
  // 1 automatic, 2 always, 3 never.
  { name: 'demote_inactive_streams', schema: oneOfInts(1, 2, 3), default: 1 },
  // 1 compact, 2 with status, 3 with avatar and status.
  { name: 'user_list_style', schema: oneOfInts(1, 2, 3), default: 3 },
  {
    name: 'web_animate_image_previews',
    schema: oneOfStrings('always', 'on_hover', 'never'),
    default: 'on_hover',
  },
  // 1 every channel, 2 unmuted channels and topics, 3 none.
  { name: 'web_stream_unreads_count_display_policy', schema: oneOfInts(1, 2, 3), default: 2 },
  // Whether the left sidebar shows the unread-count summary (level 398), and whether the left
  // sidebar and the Inbox group channels by their folders (levels 411 and 431).
  { name: 'web_left_sidebar_unreads_count_summary', schema: bool, default: true },
  { name: 'web_left_sidebar_show_channel_folders', schema: bool, default: true },
  { name: 'web_inbox_show_channel_folders', schema: bool, default: true },
  { name: 'hide_ai_features', schema: bool, default: false },
  // Lives on the user row rather than among the other settings, yet is changed and reported
  // like one. Empty means "not set"; the view checks that a
  // non-empty value names an IANA zone.
  { name: 'timezone', schema: { type: 'string', maxLength: 40 }, default: '' },
  { name: 'enter_sends', schema: bool, default: false },
  { name: 'enable_drafts_synchronization', schema: bool, default: true },
  { name: 'enable_stream_desktop_notifications', schema: bool, default: false },
  { name: 'enable_stream_email_notifications', schema: bool, default: false },
  { name: 'enable_stream_push_notifications', schema: bool, default: false },
  { name: 'enable_stream_audible_notifications', schema: bool, default: false },
  // One of NOTIFICATION_SOUNDS or 'none'; the view checks with isValidNotificationSound.
  {
    name: 'notification_sound',
    schema: { type: 'string', minLength: 1, maxLength: 20 },
    default: 'zulip',
  },
  { name: 'enable_desktop_notifications', schema: bool, default: true },
  { name: 'enable_sounds', schema: bool, default: true },
  { name: 'enable_followed_topic_desktop_notifications', schema: bool, default: true },
  { name: 'enable_followed_topic_email_notifications', schema: bool, default: true },
  { name: 'enable_followed_topic_push_notifications', schema: bool, default: true },
  { name: 'enable_followed_topic_audible_notifications', schema: bool, default: true },
  {
    name: 'email_notifications_batching_period_seconds',
    schema: { type: 'integer', minimum: 1, maximum: WEEK_SECONDS },
    default: 120,
  },
  { name: 'enable_offline_email_notifications', schema: bool, default: true },
  { name: 'enable_offline_push_notifications', schema: bool, default: true },
  { name: 'enable_online_push_notifications', schema: bool, default: true },
  { name: 'enable_digest_emails', schema: bool, default: true },
  { name: 'enable_marketing_emails', schema: bool, default: true },
  { name: 'enable_login_emails', schema: bool, default: true },
  { name: 'message_content_in_email_notifications', schema: bool, default: true },
  { name: 'pm_content_in_desktop_notifications', schema: bool, default: true },
  { name: 'wildcard_mentions_notify', schema: bool, default: true },
  { name: 'enable_followed_topic_wildcard_mentions_notify', schema: bool, default: true },
  // 1 all unread messages, 2 DMs + mentions + followed topics, 3 DMs + mentions, 4 nothing.
  { name: 'desktop_icon_count_display', schema: oneOfInts(1, 2, 3, 4), default: 1 },
  // 1 automatic, 2 always, 3 never.
  { name: 'realm_name_in_email_notifications_policy', schema: oneOfInts(1, 2, 3), default: 1 },
  // 1 on participation, 2 on sending, 3 on starting the topic, 4 never.
  { name: 'automatically_follow_topics_policy', schema: TOPIC_POLICY, default: 3 },
  { name: 'automatically_unmute_topics_in_muted_streams_policy', schema: TOPIC_POLICY, default: 2 },
  { name: 'automatically_follow_topics_where_mentioned', schema: bool, default: true },
  // Which notices of a topic being resolved or unresolved arrive already read (level 385): all,
  // all but those in topics the user follows, or none.
  {
    name: 'resolved_topic_notice_auto_read_policy',
    schema: oneOfStrings('always', 'except_followed', 'never'),
    default: 'except_followed',
  },
  { name: 'presence_enabled', schema: bool, default: true },
  { name: 'send_private_typing_notifications', schema: bool, default: true },
  { name: 'send_stream_typing_notifications', schema: bool, default: true },
  { name: 'send_read_receipts', schema: bool, default: true },
  { name: 'allow_private_data_export', schema: bool, default: false },
  // 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators. The model default is 1;
  // an organization Zulip creates itself starts its new-user default at 3 (1 for businesses,
  // 5 for schools), which a realm-level default can reproduce later.
  { name: 'email_address_visibility', schema: oneOfInts(1, 2, 3, 4, 5), default: 1 },
  { name: 'web_navigate_to_sent_message', schema: bool, default: true },
];

/** Non-setting lists Zulip includes in register's user_settings object (e.g. available_notification_sounds, emojiset_choices), with the values a server without custom sounds would send. */
export const USER_SETTINGS_EXTRAS: Record<string, unknown> = {
  available_notification_sounds: NOTIFICATION_SOUNDS,
  emojiset_choices: EMOJISETS,
};

/**
 * A setting's value as Zulip 12 spells it, for values written by older servers (an import) or
 * older clients: the Recent conversations home view was 'recent_topics' before feature level 454.
 */
export function currentSettingValue(name: string, value: unknown): unknown {
  return name === 'web_home_view' && value === 'recent_topics' ? 'recent' : value;
}

/** Settings by name, for views that look one up per parameter. */
export const USER_SETTINGS_BY_NAME: ReadonlyMap<string, UserSettingDef> = new Map(
  USER_SETTINGS.map((s) => [s.name, s]),
);

/**
 * Settings the organization's defaults for new users do not include: the timezone (each
 * person's own place), and for PATCH /realm/user_settings_defaults also the language and the
 * settings Zulip leaves to each person (security mails, marketing mails, private data export).
 */
export const NOT_ORGANIZATION_DEFAULTS: ReadonlySet<string> = new Set(['timezone']);
export const NOT_CHANGEABLE_ORGANIZATION_DEFAULTS: ReadonlySet<string> = new Set([
  'timezone',
  'default_language',
  'enable_login_emails',
  'enable_marketing_emails',
  'allow_private_data_export',
]);
