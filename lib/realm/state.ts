import { emojiDataPath } from '../emoji/data';
import { THUMBNAIL_FORMATS } from '../uploads/images';
import { relayConfigured } from '../push/relay';
import type { StateContext } from '../events/state-context';
import { CHANNEL_SETTINGS } from '../channels/access';
import { USER_GROUP_SETTINGS } from '../groups/access';
import { describePermission, groupSettingValue } from '../groups/settings';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../messages/topics';
import type { Stoa } from '../stoa';
import { botEmailDomain } from '../users/email-visibility';
import { realmPermissionSettings, REALM_SERVER_FACTS, REALM_SETTINGS } from './settings';
import { realmSetting, serverWebPublicStreamsEnabled } from './settings-store';
import { realmImagesState } from './images';
import { JsonText } from '../http/json';
import { KeptWhileUnwritten } from '../table-writes';

/** When this server process started: clients compare it to notice a server restart. */
const SERVER_GENERATION = Math.floor(Date.now() / 1000);

/** The system group name a group-setting value names, or undefined for any other group. */
function systemGroupName(stoa: Stoa, groupId: number): string | undefined {
  const group = stoa.groups.byId(groupId);
  return group?.is_system_group ? group.name! : undefined;
}

/**
 * Pre-group-settings clients read some permissions as numeric policies. Each table maps the
 * system group a setting names to its old code; any other group gets the fallback.
 */
function legacyPolicy(stoa: Stoa, key: string, codes: Record<string, number>, fallback: number): number {
  const name = systemGroupName(stoa, realmSetting(stoa, key) as number);
  return name !== undefined && name in codes ? codes[name] : fallback;
}

/**
 * What every group setting may name and starts as. A new channel's or group's creator-only
 * default is given by the pseudo-names Zulip uses for it.
 */
function supportedPermissionSettings(): Record<string, Record<string, Record<string, unknown>>> {
  const stream = Object.fromEntries(
    Object.entries(CHANNEL_SETTINGS).map(([name, s]) => [
      name,
      describePermission(s.permission, s.default === 'creator' ? 'channel_creator' : s.default, null),
    ]),
  );
  const group = Object.fromEntries(
    Object.entries(USER_GROUP_SETTINGS).map(([name, s]) => [
      name,
      describePermission(s.permission, s.default === 'creator' ? 'group_creator' : s.default, s.forSystemGroups),
    ]),
  );
  return { realm: realmPermissionSettings(), stream, group };
}

function loginMethods(stoa: Stoa): Record<string, { enabled: boolean; available: boolean }> {
  const methods: Record<string, { enabled: boolean; available: boolean }> = {
    Email: { enabled: true, available: true },
  };
  if (stoa.config.dev) methods.Dev = { enabled: true, available: true };
  return methods;
}

/**
 * What the `realm` state is made of besides the server's configuration: the organization's row
 * and settings, and the groups that group settings name (with the active members of unnamed
 * ones, so the users too).
 */
const REALM_STATE_TABLES = ['realm', 'realm_settings', 'user_groups', 'user_group_members', 'user_group_subgroups', 'users'];

const keptRealmStates = new WeakMap<Stoa, { site: string; kept: KeptWhileUnwritten<Record<string, JsonText>> }>();

/**
 * Register state for fetch type `realm`: the organization's settings, the server's limits,
 * and the values computed from both. It is the same for everyone, so it is kept, each value
 * as JSON, until one of its tables is written: a crowd arriving at once otherwise reads and
 * serializes 150 settings and the permission descriptions once per person.
 */
export function realmState({ stoa }: StateContext): Record<string, JsonText> {
  let entry = keptRealmStates.get(stoa);
  if (entry?.site !== stoa.site) keptRealmStates.set(stoa, (entry = { site: stoa.site, kept: new KeptWhileUnwritten(stoa.tableWrites, REALM_STATE_TABLES) }));
  return entry.kept.get(() => {
    const fields: Record<string, JsonText> = {};
    for (const [key, value] of Object.entries(buildRealmState(stoa))) {
      if (value !== undefined) fields[key] = new JsonText(JSON.stringify(value));
    }
    return fields;
  });
}

function buildRealmState(stoa: Stoa): Record<string, unknown> {
  const realm = stoa.realm.get()!;
  const state: Record<string, unknown> = { ...REALM_SERVER_FACTS };
  for (const def of REALM_SETTINGS) {
    const value = realmSetting(stoa, def.key);
    state[def.key] = def.groupSetting ? groupSettingValue(stoa, value as number) : value;
  }
  const heartbeatSecs = Math.ceil(stoa.queues.heartbeatMs / 1000);
  Object.assign(state, {
    realm_name: realm.name,
    realm_description: realm.description,
    realm_uuid: realm.uuid,
    realm_owner_full_content_access: realm.owner_full_content_access === 1,
    realm_date_created: realm.date_created,
    realm_url: stoa.site,
    realm_uri: stoa.site,
    server_emoji_data_url: `${stoa.site}${emojiDataPath()}`,
    // Zero tells clients that uploads are off, so they hide the attach button.
    max_file_upload_size_mib: stoa.config.maxFileUploadSizeMib,
    realm_upload_quota_mib: stoa.config.uploadQuotaMib ?? null,
    server_thumbnail_formats: THUMBNAIL_FORMATS,
    realm_bot_domain: botEmailDomain(stoa.site),
    ...realmImagesState(stoa),
    realm_authentication_methods: loginMethods(stoa),
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    realm_push_notifications_enabled: relayConfigured(stoa),
    server_web_public_streams_enabled: serverWebPublicStreamsEnabled(stoa),
    server_generation: SERVER_GENERATION,
    // Comfortably above the heartbeat interval, as clients use it as their HTTP timeout.
    event_queue_longpoll_timeout_seconds: Math.max(90, heartbeatSecs + 40),
    realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
    server_supported_permission_settings: supportedPermissionSettings(),
    jitsi_server_url: state.realm_jitsi_server_url ?? state.server_jitsi_server_url,
    realm_allow_edit_history: state.realm_message_edit_history_visibility_policy !== 'none',
    realm_mandatory_topics: state.realm_topics_policy === 'disable_empty_topic',
    realm_create_public_stream_policy: legacyPolicy(
      stoa,
      'realm_can_create_public_channel_group',
      { 'role:members': 1, 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 },
      2,
    ),
    realm_create_private_stream_policy: legacyPolicy(
      stoa,
      'realm_can_create_private_channel_group',
      { 'role:members': 1, 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 },
      2,
    ),
    realm_create_web_public_stream_policy: legacyPolicy(
      stoa,
      'realm_can_create_web_public_channel_group',
      { 'role:administrators': 2, 'role:moderators': 4, 'role:nobody': 6, 'role:owners': 7 },
      7,
    ),
    realm_wildcard_mention_policy: legacyPolicy(
      stoa,
      'realm_can_mention_many_users_group',
      {
        'role:everyone': 1,
        'role:members': 2,
        'role:fullmembers': 3,
        'role:administrators': 5,
        'role:nobody': 6,
        'role:moderators': 7,
      },
      5,
    ),
  });
  return state;
}

/**
 * Register state for the fetch types `giphy`, `tenor` (level 442) and `klipy` (level 486): the
 * API key a client's GIF picker uses, empty because no provider is configured here, which
 * tells clients to offer no picker.
 */
export function gifPickerKeyState(provider: 'giphy' | 'tenor' | 'klipy') {
  return (): Record<string, unknown> => ({ [`${provider}_api_key`]: '' });
}
