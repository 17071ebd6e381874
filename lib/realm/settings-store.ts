import { holdsGroupSetting } from '../groups/settings';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { REALM_SETTINGS, type RealmSettingDef } from './settings';

const BY_KEY = new Map<string, RealmSettingDef>(REALM_SETTINGS.map((def) => [def.key, def]));

/**
 * The current value of an organization setting: what was stored, else the default. A group
 * setting's default names a system group, answered with that group's ID.
 */
export function realmSetting(stoa: Stoa, key: string): unknown {
  const def = BY_KEY.get(key);
  if (!def) throw new Error(`unknown organization setting ${key}`);
  const stored = stoa.realm.setting(key);
  if (stored !== undefined) return JSON.parse(stored);
  if (def.groupSetting) return stoa.groups.byName(def.default as string)!.id;
  return def.default;
}

/** Whether the user holds an organization-level group setting, e.g. realm_can_add_subscribers_group. */
export function userHasRealmPermission(stoa: Stoa, user: UserRow, key: string): boolean {
  const def = BY_KEY.get(key);
  if (!def?.groupSetting || !def.permission) throw new Error(`${key} is not a group setting`);
  return holdsGroupSetting(stoa, user, realmSetting(stoa, key) as number, def.permission);
}

/** The server-wide switch for web-public channels: the --web-public flag. */
export function serverWebPublicStreamsEnabled(stoa: Stoa): boolean {
  return stoa.config.webPublic;
}

/** Web-public channels need the server's switch and the organization's spectator access. */
export function webPublicChannelsEnabled(stoa: Stoa): boolean {
  return serverWebPublicStreamsEnabled(stoa) && realmSetting(stoa, 'realm_enable_spectator_access') === true;
}
