/**
 * What Zulip's official mobile app (the Flutter app, github.com/zulip/zulip-flutter) needs to
 * find in our answers to decode them, and a checker that says precisely where an answer falls short.
 *
 * The app decodes every response with generated JSON readers; one missing key, one value of the
 * wrong type or one enum value it does not know throws, and the whole response is lost: a
 * register is retried forever, one bad event reloads the whole client, one bad message breaks
 * its conversation view. The tables below state, as facts read from the app's sources, which
 * keys each answer must carry and of which JSON type:
 * - lib/api/route/realm.dart (server_settings, the emoji data), lib/api/route/account.dart
 *   (fetch_api_key), lib/api/route/messages.dart and lib/api/route/events.dart (responses);
 * - lib/api/model/initial_snapshot.dart (register), lib/api/model/model.dart (users, channels,
 *   subscriptions, groups, messages, statuses, group settings), lib/api/model/reaction.dart
 *   (reaction types), lib/api/model/events.dart (every event the app decodes),
 *   lib/api/model/submessage.dart;
 * and their generated `*.g.dart` readers, at the app's commit e989e4f (August 2026).
 *
 * Meaning of the table:
 * - `req`: the key must be present and not null, with the given type.
 * - `opt`: the key may be absent or null (a nullable Dart field, or one with a default); when it
 *   has a value, the value must have the given type.
 * - `nullable(x)`: the key may be null, but its value must otherwise be x.
 * - `enumOf(values, 'fallback')`: the app maps values it does not know to "unknown" (they must
 *   still be of the values' JSON type); `'strict'`: any other value throws.
 * - Unknown extra keys are ignored everywhere, so none are listed.
 * - `int` accepts integers only; the app reads most numbers as num and truncates, but a few
 *   hand-written readers cast to int, and we never mean to send a fraction where it expects one.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export type Shape =
  | { t: 'int' | 'num' | 'str' | 'bool' | 'any' }
  | { t: 'list'; of: Shape }
  | { t: 'map'; of: Shape; intKeys: boolean }
  | { t: 'obj'; req: Fields; opt: Fields; also?: (value: JsonObject) => Shape | string | null }
  | { t: 'enum'; values: ReadonlyArray<string | number>; fallback: boolean }
  | { t: 'nullable'; of: Shape }
  | { t: 'either'; of: Shape[]; name: string };
type Fields = Record<string, Shape>;

export const int: Shape = { t: 'int' };
export const num: Shape = { t: 'num' };
export const str: Shape = { t: 'str' };
export const bool: Shape = { t: 'bool' };
export const anything: Shape = { t: 'any' };
export const list = (of: Shape): Shape => ({ t: 'list', of });
/** A JSON object used as a map: any string keys, each value of one shape. */
export const map = (of: Shape): Shape => ({ t: 'map', of, intKeys: false });
/** A map whose keys the app parses as integers (user IDs, message IDs). */
export const intMap = (of: Shape): Shape => ({ t: 'map', of, intKeys: true });
/**
 * An object with required and optional keys. `also` adds what depends on the object's own
 * values: a further shape the same object must satisfy, or a violation (a sentence), or null.
 */
export const obj = (req: Fields, opt: Fields = {}, also?: (value: JsonObject) => Shape | string | null): Shape => ({
  t: 'obj',
  req,
  opt,
  also,
});
export const enumOf = (values: ReadonlyArray<string | number>, unknown: 'fallback' | 'strict'): Shape => ({
  t: 'enum',
  values,
  fallback: unknown === 'fallback',
});
export const nullable = (of: Shape): Shape => ({ t: 'nullable', of });
export const either = (name: string, ...of: Shape[]): Shape => ({ t: 'either', of, name });

function describe(shape: Shape): string {
  switch (shape.t) {
    case 'list':
      return `list of ${describe(shape.of)}`;
    case 'map':
      return 'object (map)';
    case 'obj':
      return 'object';
    case 'enum':
      return `one of ${JSON.stringify(shape.values)}`;
    case 'nullable':
      return `${describe(shape.of)} or null`;
    case 'either':
      return shape.name;
    default:
      return shape.t;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every place `value` breaks `shape`, as "path: what is wrong"; empty when the app would decode it. */
export function violations(value: unknown, shape: Shape, path = '$'): string[] {
  const wrong = () => [`${path}: expected ${describe(shape)}, got ${JSON.stringify(value)?.slice(0, 80)}`];
  switch (shape.t) {
    case 'any':
      return [];
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? [] : wrong();
    case 'num':
      return typeof value === 'number' ? [] : wrong();
    case 'str':
      return typeof value === 'string' ? [] : wrong();
    case 'bool':
      return typeof value === 'boolean' ? [] : wrong();
    case 'nullable':
      return value === null ? [] : violations(value, shape.of, path);
    case 'either':
      return shape.of.some((option) => violations(value, option, path).length === 0) ? [] : wrong();
    case 'enum': {
      if (shape.values.includes(value as string | number)) return [];
      if (shape.fallback && typeof value === typeof shape.values[0]) return [];
      return [`${path}: expected ${describe(shape)}${shape.fallback ? '' : ' (the app has no fallback)'}, got ${JSON.stringify(value)}`];
    }
    case 'list':
      if (!Array.isArray(value)) return wrong();
      return value.flatMap((item, i) => violations(item, shape.of, `${path}[${i}]`));
    case 'map':
      if (!isObject(value)) return wrong();
      return Object.entries(value).flatMap(([key, item]) => [
        ...(shape.intKeys && !/^-?\d+$/.test(key) ? [`${path}: key ${JSON.stringify(key)} is not an integer`] : []),
        ...violations(item, shape.of, `${path}[${JSON.stringify(key)}]`),
      ]);
    case 'obj': {
      if (!isObject(value)) return wrong();
      const found: string[] = [];
      for (const [key, field] of Object.entries(shape.req)) {
        if (value[key] === undefined || value[key] === null) {
          if (field.t !== 'nullable' || value[key] === undefined) found.push(`${path}.${key}: required (${describe(field)}), got ${JSON.stringify(value[key]) ?? 'nothing'}`);
        } else found.push(...violations(value[key], field, `${path}.${key}`));
      }
      for (const [key, field] of Object.entries(shape.opt)) {
        if (value[key] !== undefined && value[key] !== null) found.push(...violations(value[key], field, `${path}.${key}`));
      }
      const extra = shape.also?.(value);
      if (typeof extra === 'string') found.push(`${path}: ${extra}`);
      else if (extra) found.push(...violations(value, extra, path));
      return found;
    }
  }
}

// ---------------------------------------------------------------------------
// GET /server_settings (lib/api/route/realm.dart, GetServerSettingsResult)
// ---------------------------------------------------------------------------

export const SERVER_SETTINGS = obj({
  authentication_methods: obj({ ldap: bool }),
  external_authentication_methods: list(
    obj({ name: str, display_name: str, login_url: str, signup_url: str }, { display_icon: str }),
  ),
  zulip_feature_level: int,
  zulip_version: str,
  zulip_merge_base: str,
  push_notifications_enabled: bool,
  is_incompatible: bool,
  email_auth_enabled: bool,
  require_email_format_usernames: bool,
  // The app reads realm_uri, not realm_url, and sends every later request to its origin.
  realm_uri: str,
  realm_name: str,
  realm_icon: str,
  realm_description: str,
  realm_web_public_access_enabled: bool,
});

/** The oldest server the app logs in to (its "allowed minimum" feature level, Zulip 9.0). */
export const OLDEST_FEATURE_LEVEL = 277;

// ---------------------------------------------------------------------------
// POST /fetch_api_key (lib/api/route/account.dart, FetchApiKeyResult)
// ---------------------------------------------------------------------------

export const FETCH_API_KEY = obj({ api_key: str, email: str }, { user_id: int });

// ---------------------------------------------------------------------------
// Shared models (lib/api/model/model.dart, reaction.dart)
// ---------------------------------------------------------------------------

/** Reaction types: the app's ReactionType knows these three names and nothing else. */
export const REACTION_TYPE = enumOf(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'], 'strict');

/** A group setting: a group's ID, or an object naming members and subgroups directly. */
const GROUP_SETTING = either('group setting value (int or {direct_members, direct_subgroups})', int, obj({ direct_members: list(int), direct_subgroups: list(int) }));

const CUSTOM_PROFILE_FIELD = obj(
  { id: int, type: enumOf([1, 2, 3, 4, 5, 6, 7, 8], 'fallback'), order: int, name: str, hint: str, field_data: str },
  { display_in_profile_summary: bool },
);

const REALM_EMOJI_ITEM = obj({ id: str, name: str, source_url: str, deactivated: bool }, { still_url: str, author_id: int });

const USER_GROUP = obj(
  { id: int, members: list(int), direct_subgroup_ids: list(int), name: str, description: str, is_system_group: bool },
  { deactivated: bool },
);

const USER_FIELDS = {
  user_id: int,
  email: str,
  full_name: str,
  // Parsed with Dart's DateTime.parse: an ISO 8601 date and time.
  date_joined: str,
  is_bot: bool,
  timezone: str,
  avatar_version: int,
  role: enumOf([100, 200, 300, 400, 600], 'fallback'),
};
const USER_OPTIONAL = {
  delivery_email: str,
  bot_type: int,
  bot_owner_id: int,
  avatar_url: str,
  is_system_bot: bool,
  profile_data: intMap(obj({ value: str }, { rendered_value: str })),
};
/** A user in register's lists, where the app fills in is_active when it is absent. */
const USER = obj(USER_FIELDS, { ...USER_OPTIONAL, is_active: bool }, (user) =>
  typeof user.date_joined === 'string' && Number.isNaN(Date.parse(user.date_joined)) ? 'date_joined is not a date and time' : null,
);
/** A user in a realm_user add event, which must say whether the user is active. */
const USER_IN_EVENT = obj({ ...USER_FIELDS, is_active: bool }, USER_OPTIONAL);

const CHANNEL_FIELDS = {
  stream_id: int,
  name: str,
  description: str,
  rendered_description: str,
  date_created: int,
  invite_only: bool,
  is_web_public: bool,
  history_public_to_subscribers: bool,
};
const CHANNEL_OPTIONAL = {
  is_archived: bool,
  first_message_id: int,
  message_retention_days: int,
  folder_id: int,
  is_recently_active: bool,
  stream_weekly_traffic: int,
  topics_policy: enumOf(['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'], 'fallback'),
  stream_post_policy: enumOf([1, 2, 3, 4], 'strict'),
  can_add_subscribers_group: GROUP_SETTING,
  can_delete_any_message_group: GROUP_SETTING,
  can_delete_own_message_group: GROUP_SETTING,
  can_send_message_group: GROUP_SETTING,
  can_subscribe_group: GROUP_SETTING,
};
/** The app works out who may post from one of these two; a channel without either breaks the compose box. */
const postingRule = (channel: JsonObject) =>
  channel.can_send_message_group === undefined && channel.stream_post_policy === undefined
    ? 'neither can_send_message_group nor stream_post_policy'
    : null;
const CHANNEL = obj(CHANNEL_FIELDS, CHANNEL_OPTIONAL, postingRule);

const SUBSCRIPTION = obj(
  { ...CHANNEL_FIELDS, pin_to_top: bool, is_muted: bool, color: str },
  {
    ...CHANNEL_OPTIONAL,
    desktop_notifications: bool,
    email_notifications: bool,
    wildcard_mentions_notify: bool,
    push_notifications: bool,
    audible_notifications: bool,
  },
  (sub) => (typeof sub.color === 'string' && !/^#[0-9a-f]{6}$/.test(sub.color) ? `color ${JSON.stringify(sub.color)} is not #rrggbb in lowercase` : postingRule(sub)),
);

const CHANNEL_FOLDER = obj(
  { id: int, name: str, description: str, rendered_description: str, is_archived: bool },
  { order: int, date_created: int, creator_id: int },
);

/**
 * A status change, read by hand: every key may be absent; when the three emoji keys are all
 * non-empty, the reaction type must be one the app knows.
 */
const USER_STATUS_KEYS = { status_text: str, emoji_name: str, emoji_code: str, reaction_type: str, away: bool };
const emojiOfStatus = (status: JsonObject): Shape | null =>
  status.emoji_name && status.emoji_code && status.reaction_type ? obj({ reaction_type: REACTION_TYPE }) : null;
const USER_STATUS = obj({}, USER_STATUS_KEYS, emojiOfStatus);

const UNREAD_IDS = list(int);
/** Unread ID lists are sorted, without duplicates (the app asserts it and searches them by halving). */
const sortedIds = (ids: Json): string | null =>
  Array.isArray(ids) && ids.some((id, i) => i > 0 && (id as number) <= (ids[i - 1] as number)) ? 'unread_message_ids are not sorted ascending without duplicates' : null;

const UNREAD_MESSAGES = obj({
  count: int,
  pms: list(obj({ other_user_id: int, unread_message_ids: UNREAD_IDS }, {}, (x) => sortedIds(x.unread_message_ids))),
  streams: list(obj({ topic: str, stream_id: int, unread_message_ids: UNREAD_IDS }, {}, (x) => sortedIds(x.unread_message_ids))),
  huddles: list(obj({ user_ids_string: str, unread_message_ids: UNREAD_IDS }, {}, (x) => sortedIds(x.unread_message_ids))),
  mentions: list(int),
  old_unreads_missing: bool,
});

const USER_SETTINGS = obj(
  {
    starred_message_counts: bool,
    display_emoji_reaction_users: bool,
    presence_enabled: bool,
    emojiset: enumOf(['google', 'google-blob', 'twitter', 'text'], 'fallback'),
  },
  { twenty_four_hour_time: bool, web_inbox_show_channel_folders: bool },
);

const VISIBILITY_POLICY = [0, 1, 2, 3];

// ---------------------------------------------------------------------------
// POST /register (lib/api/model/initial_snapshot.dart, InitialSnapshot)
// ---------------------------------------------------------------------------

export const INITIAL_SNAPSHOT = obj(
  {
    // queue_id is nullable in the model, but the app refuses to start a session without one.
    queue_id: str,
    last_event_id: int,
    zulip_feature_level: int,
    zulip_version: str,
    zulip_merge_base: str,
    alert_words: list(str),
    custom_profile_fields: list(CUSTOM_PROFILE_FIELD),
    event_queue_longpoll_timeout_seconds: int,
    max_file_upload_size_mib: int,
    max_stream_name_length: int,
    max_topic_length: int,
    muted_users: list(obj({ id: int })),
    presences: intMap(obj({ active_timestamp: int, idle_timestamp: int })),
    realm_allow_message_editing: bool,
    realm_default_external_accounts: map(obj({ name: str, text: str, hint: str, url_pattern: str })),
    realm_emoji: map(REALM_EMOJI_ITEM),
    realm_enable_read_receipts: bool,
    realm_icon_url: str,
    realm_name: str,
    realm_presence_disabled: bool,
    realm_user_groups: list(USER_GROUP),
    realm_waiting_period_threshold: int,
    realm_wildcard_mention_policy: enumOf([1, 2, 3, 5, 6, 7], 'strict'),
    recent_private_conversations: list(obj({ max_message_id: int, user_ids: list(int) })),
    server_emoji_data_url: str,
    server_presence_offline_threshold_seconds: int,
    server_presence_ping_interval_seconds: int,
    starred_messages: list(int),
    streams: list(CHANNEL),
    subscriptions: list(SUBSCRIPTION),
    unread_msgs: UNREAD_MESSAGES,
    user_settings: USER_SETTINGS,
    user_status: intMap(USER_STATUS),
    user_topics: list(obj({ stream_id: int, topic_name: str, last_updated: int, visibility_policy: enumOf(VISIBILITY_POLICY, 'fallback') })),
    realm_users: list(USER),
    realm_non_active_users: list(USER),
    cross_realm_bots: list(USER),
  },
  {
    server_typing_started_expiry_period_milliseconds: int,
    server_typing_stopped_wait_period_milliseconds: int,
    server_typing_started_wait_period_milliseconds: int,
    server_thumbnail_formats: list(obj({ name: str, max_width: int, max_height: int, animated: bool, format: str })),
    saved_snippets: list(obj({ id: int, title: str, content: str, date_created: int })),
    channel_folders: list(CHANNEL_FOLDER),
    devices: intMap(
      obj({}, { push_key_id: int, push_token_id: str, pending_push_token_id: str, push_token_last_updated_timestamp: int, push_registration_error_code: str }),
    ),
    realm_can_delete_any_message_group: GROUP_SETTING,
    realm_can_delete_own_message_group: GROUP_SETTING,
    realm_delete_own_message_policy: enumOf([1, 2, 3, 4, 5], 'strict'),
    realm_topics_policy: enumOf(['allow_empty_topic', 'disable_empty_topic'], 'fallback'),
    realm_mandatory_topics: bool,
    realm_message_content_delete_limit_seconds: int,
    realm_message_content_edit_limit_seconds: int,
    realm_moderation_request_channel_id: int,
    realm_empty_topic_display_name: str,
    server_report_message_types: list(obj({ key: str, name: str })),
  },
  (state) => {
    // Facts the app relies on after decoding, each of which stops a session when missing.
    if (state.realm_topics_policy == null && state.realm_mandatory_topics == null) return 'neither realm_topics_policy nor realm_mandatory_topics';
    if (state.realm_can_delete_own_message_group == null && state.realm_delete_own_message_policy == null) {
      return 'neither realm_can_delete_own_message_group nor realm_delete_own_message_policy';
    }
    if (typeof state.server_emoji_data_url === 'string' && !/^https?:\/\//.test(state.server_emoji_data_url)) {
      return 'server_emoji_data_url is not an absolute URL (the app requests it as given)';
    }
    return null;
  },
);

// ---------------------------------------------------------------------------
// Messages (model.dart Message, StreamMessage, DmMessage; route messages.dart)
// ---------------------------------------------------------------------------

const FLAG_NAMES = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'topic_wildcard_mentioned',
  'stream_wildcard_mentioned',
  'wildcard_mentioned',
  'has_alert_word',
  'historical',
];
const REACTION = obj({ emoji_name: str, emoji_code: str, reaction_type: REACTION_TYPE, user_id: int });

const STREAM_MESSAGE = obj({ stream_id: int, subject: str, display_recipient: str });
const DM_MESSAGE = obj({ display_recipient: list(obj({ id: int })) }, {}, (message) => {
  const ids = (message.display_recipient as JsonObject[]).map((r) => r.id);
  return new Set(ids).size === ids.length ? null : 'display_recipient lists a user twice';
});

const MESSAGE_FIELDS = {
  type: enumOf(['stream', 'private'], 'strict'),
  client: str,
  content: str,
  content_type: str,
  id: int,
  is_me_message: bool,
  sender_email: str,
  sender_full_name: str,
  sender_id: int,
  sender_realm_str: str,
  timestamp: int,
  reactions: list(REACTION),
};
const MESSAGE_OPTIONAL = {
  last_edit_timestamp: int,
  match_content: str,
  match_subject: str,
  edit_history: list(obj({}, { prev_topic: str, topic: str })),
  submessages: list(obj({ sender_id: int, msg_type: str, content: str })),
};
const byMessageType = (message: JsonObject) => (message.type === 'stream' ? STREAM_MESSAGE : message.type === 'private' ? DM_MESSAGE : null);
const editHistoryRule = (message: JsonObject): Shape | string | null => {
  const history = message.edit_history;
  if (Array.isArray(history)) {
    if (history.length === 0) return 'edit_history is present but empty';
    if (history.some((entry) => isObject(entry) && entry.prev_topic != null && typeof entry.topic !== 'string')) return 'an edit_history entry has prev_topic without topic';
  }
  return byMessageType(message);
};
/** A message in GET /messages and GET /messages/{id}: with the viewer's flags. */
export const MESSAGE = obj({ ...MESSAGE_FIELDS, flags: list(str) }, MESSAGE_OPTIONAL, editHistoryRule);
/** A message inside a message event: its flags are beside it, in the event. */
const MESSAGE_OF_EVENT = obj(MESSAGE_FIELDS, MESSAGE_OPTIONAL, editHistoryRule);

export const GET_MESSAGES = obj({
  anchor: int,
  found_newest: bool,
  found_oldest: bool,
  found_anchor: bool,
  history_limited: bool,
  messages: list(MESSAGE),
});
export const GET_MESSAGE = obj({ message: MESSAGE });

// ---------------------------------------------------------------------------
// Events (lib/api/model/events.dart)
// ---------------------------------------------------------------------------

const MESSAGE_TYPE = enumOf(['private', 'direct', 'stream'], 'strict');
const PROPAGATE_MODE = enumOf(['change_one', 'change_later', 'change_all'], 'strict');

/** The type a subscription property's value must have in a subscription update event. */
const SUBSCRIPTION_VALUE: Record<string, Shape> = {
  color: str,
  is_muted: bool,
  in_home_view: bool,
  pin_to_top: bool,
  desktop_notifications: bool,
  audible_notifications: bool,
  push_notifications: bool,
  email_notifications: bool,
  wildcard_mentions_notify: bool,
};

/** The type a channel property's value must have in a stream update event. */
const CHANNEL_VALUE: Record<string, Shape> = {
  name: str,
  description: str,
  is_archived: bool,
  invite_only: bool,
  is_recently_active: bool,
  first_message_id: nullable(int),
  message_retention_days: nullable(int),
  folder_id: nullable(int),
  stream_weekly_traffic: nullable(int),
  topics_policy: str,
  stream_post_policy: enumOf([1, 2, 3, 4], 'strict'),
  history_public_to_subscribers: bool,
  is_web_public: bool,
  can_add_subscribers_group: GROUP_SETTING,
  can_administer_channel_group: GROUP_SETTING,
  can_delete_any_message_group: GROUP_SETTING,
  can_delete_own_message_group: GROUP_SETTING,
  can_move_messages_out_of_channel_group: GROUP_SETTING,
  can_move_messages_within_channel_group: GROUP_SETTING,
  can_remove_subscribers_group: GROUP_SETTING,
  can_resolve_topics_group: GROUP_SETTING,
  can_send_message_group: GROUP_SETTING,
  can_subscribe_group: GROUP_SETTING,
};

/** The type a user setting's value must have in a user_settings update event; others are ignored. */
const USER_SETTING_VALUE: Record<string, Shape> = {
  twenty_four_hour_time: nullable(bool),
  starred_message_counts: bool,
  display_emoji_reaction_users: bool,
  web_inbox_show_channel_folders: bool,
  presence_enabled: bool,
  emojiset: str,
};

/** A value typed by the event's property, where the table knows the property; a required key. */
const valueByProperty = (table: Record<string, Shape>) => (event: JsonObject) => {
  const shape = table[event.property as string];
  return shape ? obj({ value: shape }) : null;
};

const heartbeat = obj({});

/** Every event the app decodes: by type, then by op ('' for the types that have none). */
export const EVENTS: Record<string, Record<string, Shape>> = {
  heartbeat: { '': heartbeat },
  alert_words: { '': obj({ alert_words: list(str) }) },
  user_settings: { update: obj({ property: str }, {}, valueByProperty(USER_SETTING_VALUE)) },
  custom_profile_fields: { '': obj({ fields: list(CUSTOM_PROFILE_FIELD) }) },
  realm_emoji: {
    add: obj({ emoji: REALM_EMOJI_ITEM }),
    update_one: obj({ emoji_id: str, data: obj({}, { deactivated: bool }) }),
    update: obj({ realm_emoji: map(REALM_EMOJI_ITEM) }),
  },
  user_group: {
    add: obj({ group: USER_GROUP }),
    update: obj({ group_id: int, data: obj({}, { name: str, description: str, deactivated: bool }) }),
    add_members: obj({ group_id: int, user_ids: list(int) }),
    remove_members: obj({ group_id: int, user_ids: list(int) }),
    add_subgroups: obj({ group_id: int, direct_subgroup_ids: list(int) }),
    remove_subgroups: obj({ group_id: int, direct_subgroup_ids: list(int) }),
    remove: obj({ group_id: int }),
  },
  realm_user: {
    add: obj({ person: USER_IN_EVENT }),
    remove: obj({ person: obj({ user_id: int }) }),
    update: obj({
      person: obj(
        { user_id: int },
        {
          full_name: str,
          avatar_url: str,
          avatar_version: int,
          timezone: str,
          bot_owner_id: int,
          role: enumOf([100, 200, 300, 400, 600], 'fallback'),
          delivery_email: str,
          custom_profile_field: obj({ id: int }, { value: str, rendered_value: str }),
          new_email: str,
          is_active: bool,
        },
      ),
    }),
  },
  saved_snippets: {
    add: obj({ saved_snippet: obj({ id: int, title: str, content: str, date_created: int }) }),
    update: obj({ saved_snippet: obj({ id: int, title: str, content: str, date_created: int }) }),
    remove: obj({ saved_snippet_id: int }),
  },
  stream: {
    create: obj({ streams: list(CHANNEL) }),
    // The app reads stream_ids, and only without them the older list of channel objects.
    delete: obj({}, { stream_ids: list(int), streams: list(obj({ stream_id: int })) }, (e) =>
      e.stream_ids == null && e.streams == null ? 'neither stream_ids nor streams' : null,
    ),
    update: obj({ stream_id: int, name: str, property: str }, { rendered_description: str, history_public_to_subscribers: bool, is_web_public: bool }, valueByProperty(CHANNEL_VALUE)),
  },
  subscription: {
    add: obj({ subscriptions: list(SUBSCRIPTION) }),
    remove: obj({ subscriptions: list(obj({ stream_id: int })) }),
    update: obj({ stream_id: int, property: str }, {}, valueByProperty(SUBSCRIPTION_VALUE)),
    peer_add: obj({ stream_ids: list(int), user_ids: list(int) }),
    peer_remove: obj({ stream_ids: list(int), user_ids: list(int) }),
  },
  channel_folder: {
    add: obj({ channel_folder: CHANNEL_FOLDER }),
    update: obj({ channel_folder_id: int, data: obj({}, { name: str, description: str, rendered_description: str, is_archived: bool }) }),
    reorder: obj({ order: list(int) }),
  },
  user_status: { '': obj({ user_id: int }, USER_STATUS_KEYS, emojiOfStatus) },
  user_topic: { '': obj({ stream_id: int, topic_name: str, last_updated: int, visibility_policy: enumOf(VISIBILITY_POLICY, 'strict') }) },
  muted_users: { '': obj({ muted_users: list(obj({ id: int })) }) },
  message: { '': obj({ message: MESSAGE_OF_EVENT, flags: list(str) }, { local_message_id: str }) },
  update_message: {
    '': obj(
      { rendering_only: bool, message_id: int, message_ids: list(int), flags: list(enumOf(FLAG_NAMES, 'strict')), edit_timestamp: int },
      {
        user_id: int,
        orig_content: str,
        orig_rendered_content: str,
        content: str,
        rendered_content: str,
        is_me_message: bool,
        stream_id: int,
        new_stream_id: int,
        orig_subject: str,
        subject: str,
        propagate_mode: PROPAGATE_MODE,
      },
      (e) => {
        // A move is a new channel or topic, each falling back to the old one when absent.
        const moved = (e.new_stream_id ?? e.stream_id) !== e.stream_id || (e.subject ?? e.orig_subject) !== e.orig_subject;
        if (moved) return obj({ stream_id: int, orig_subject: str, propagate_mode: PROPAGATE_MODE });
        return e.propagate_mode != null ? 'propagate_mode without a new channel or topic (the app throws)' : null;
      },
    ),
  },
  delete_message: {
    '': obj({ message_ids: list(int), message_type: MESSAGE_TYPE }, {}, (e) => (e.message_type === 'stream' ? obj({ stream_id: int, topic: str }) : null)),
  },
  update_message_flags: {
    add: obj({ flag: str, messages: list(int), all: bool }),
    remove: obj(
      { flag: str, messages: list(int) },
      {
        message_details: intMap(
          obj(
            { type: MESSAGE_TYPE },
            { mentioned: bool, user_ids: list(int), stream_id: int, topic: str },
            (d) => (d.type === 'stream' ? obj({ stream_id: int, topic: str }) : obj({ user_ids: list(int) })),
          ),
        ),
      },
      (e) => (e.flag === 'read' ? obj({ message_details: anything }) : null),
    ),
  },
  submessage: {
    '': obj({ msg_type: str, content: str, message_id: int, sender_id: int, submessage_id: int }),
  },
  typing: {
    start: typingEvent(),
    stop: typingEvent(),
  },
  presence: {
    '': obj({
      user_id: int,
      server_timestamp: num,
      presence: map(obj({ client: str, status: enumOf(['active', 'idle'], 'strict'), timestamp: int, pushable: bool })),
    }),
  },
  reaction: {
    add: obj({ emoji_name: str, emoji_code: str, reaction_type: REACTION_TYPE, user_id: int, message_id: int }),
    remove: obj({ emoji_name: str, emoji_code: str, reaction_type: REACTION_TYPE, user_id: int, message_id: int }),
  },
  device: {
    add: obj({ device_id: int }),
    remove: obj({ device_id: int }),
    update: obj({ device_id: int }),
  },
};

function typingEvent(): Shape {
  return obj({ message_type: MESSAGE_TYPE, sender: obj({ user_id: int }) }, {}, (e) =>
    e.message_type === 'stream' ? obj({ stream_id: int, topic: str }) : obj({ recipients: list(obj({ user_id: int })) }),
  );
}

/** Event types and ops no action of this server produces, so the test cannot ask for them. */
export const NOT_PRODUCED: Record<string, string> = {
  'realm_emoji/add': 'at this feature level every change to custom emoji is a realm_emoji update with the whole list',
  'realm_emoji/update_one': 'at this feature level every change to custom emoji is a realm_emoji update with the whole list',
  'channel_folder/add': 'channel folders are not supported',
  'channel_folder/update': 'channel folders are not supported',
  'channel_folder/reorder': 'channel folders are not supported',
  'device/add': 'the app sends device events only to servers at feature level 468 or later',
  'device/remove': 'the app sends device events only to servers at feature level 468 or later',
  'device/update': 'the app sends device events only to servers at feature level 468 or later',
  'user_group/remove': 'the app declares include_deactivated_groups, so a deactivated group reaches it as a user_group update',
  'realm_user/remove': 'a deactivated user is a realm_user update with is_active false at this feature level',
};

/**
 * The key of an event in EVENTS ('type/op'), or null for an event the app does not decode
 * (an UnexpectedEvent, which only needs a string type and an integer id).
 */
export function eventShape(event: JsonObject): { key: string; shape: Shape } | null {
  const byOp = EVENTS[event.type as string];
  if (!byOp) return null;
  const op = '' in byOp ? '' : (event.op as string);
  const shape = byOp[op];
  return shape ? { key: `${event.type}/${op}`, shape } : null;
}

/** Every event of GET /events: a string type and an integer id, and for known types its own shape. */
export const EVENT_ENVELOPE = obj({ type: str, id: int }, {}, (event) => {
  const byOp = EVENTS[event.type as string];
  if (byOp && !('' in byOp) && typeof event.op !== 'string') return 'op is not a string, and the app switches on it';
  return eventShape(event)?.shape ?? null;
});

export const GET_EVENTS = obj({ events: list(EVENT_ENVELOPE) }, { queue_id: str });

// ---------------------------------------------------------------------------
// Other answers
// ---------------------------------------------------------------------------

/** The emoji data at server_emoji_data_url (realm.dart ServerEmojiData): codes to names, canonical first. */
export const EMOJI_DATA = obj({ code_to_names: map(list(str)) }, {}, (data) => {
  for (const [code, names] of Object.entries(data.code_to_names as JsonObject)) {
    if (!/^[0-9a-f]+(-[0-9a-f]+)*$/.test(code)) return `code ${JSON.stringify(code)} is not lowercase hex code points joined by -`;
    if (code.split('-').includes('fe0f')) return `code ${code} is qualified with U+FE0F`;
    if ((names as Json[]).length === 0) return `code ${code} has no names`;
  }
  return null;
});

export const SEND_MESSAGE = obj({ id: int });
export const UPDATE_FLAGS = obj({ messages: list(int) });
export const UPDATE_FLAGS_FOR_NARROW = obj(
  { processed_count: int, updated_count: int, found_oldest: bool, found_newest: bool },
  { first_processed_id: int, last_processed_id: int },
);
export const PRESENCE = obj({}, { presence_last_update_id: int, server_timestamp: num, presences: intMap(obj({ active_timestamp: int, idle_timestamp: int })) });
export const CHANNEL_TOPICS = obj({ topics: list(obj({ max_id: int, name: str })) });
export const READ_RECEIPTS = obj({ user_ids: list(int) });
export const UPLOAD_FILE = obj({ uri: str });
/** An error the app can show: a string msg (code is optional). */
export const API_ERROR = obj({ result: enumOf(['error'], 'strict'), msg: str }, { code: str });
