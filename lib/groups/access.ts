import { badRequest, insufficientPermission, type ApiError } from '../http/errors';
import { CHANNEL_GROUP_SETTINGS } from '../channels/queries';
import { REALM_SETTINGS, SYSTEM_GROUP_NAMES } from '../realm/settings';
import { realmSetting, userHasRealmPermission } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { GROUP_SETTINGS, type GroupRow, type GroupSettingName } from './queries';
import { holdsGroupSetting, type GroupPermission } from './settings';

/**
 * Who may do what to a user group. Managing a group (can_manage_group, or the organization's
 * can_manage_all_groups) includes every other permission on it; the narrower settings each
 * grant one kind of membership change.
 */

const MANAGERS: GroupPermission = {
  requireSystemGroup: false,
  allowInternetGroup: false,
  allowNobodyGroup: true,
  allowEveryoneGroup: false,
  allowedSystemGroups: [],
};
const ANYONE: GroupPermission = { ...MANAGERS, allowEveryoneGroup: true };

/**
 * Each user group setting: which groups it may name, what a new group gets ('creator' is an
 * ad-hoc group of the group's creator alone), and what system groups get: nobody manages or
 * joins a system group by hand, as membership follows roles, but everyone may mention one.
 * Groups may not be mentioned by a setting naming role:owners alone (the specification says
 * so), nor by people without an account.
 */
export const USER_GROUP_SETTINGS: Record<
  GroupSettingName,
  { permission: GroupPermission; default: string; forSystemGroups: 'role:nobody' | 'role:everyone' }
> = {
  can_add_members_group: { permission: MANAGERS, default: 'creator', forSystemGroups: 'role:nobody' },
  can_join_group: { permission: MANAGERS, default: 'role:nobody', forSystemGroups: 'role:nobody' },
  can_leave_group: { permission: ANYONE, default: 'role:everyone', forSystemGroups: 'role:nobody' },
  can_manage_group: { permission: MANAGERS, default: 'creator', forSystemGroups: 'role:nobody' },
  can_mention_group: {
    permission: {
      ...ANYONE,
      allowedSystemGroups: SYSTEM_GROUP_NAMES.filter((name) => name !== 'role:owners' && name !== 'role:internet'),
    },
    default: 'role:everyone',
    forSystemGroups: 'role:everyone',
  },
  can_remove_members_group: { permission: MANAGERS, default: 'role:nobody', forSystemGroups: 'role:nobody' },
};


export function invalidUserGroup(): ApiError {
  return badRequest('Invalid user group');
}

function groupIsDeactivated(): ApiError {
  return badRequest('User group is deactivated.');
}


/** Whether the user holds one of the group's own settings. */
export function holdsUserGroupSetting(stoa: Stoa, user: UserRow, group: GroupRow, setting: GroupSettingName): boolean {
  return holdsGroupSetting(stoa, user, group[`${setting}_id`]!, USER_GROUP_SETTINGS[setting].permission);
}

/** A named group by ID, for reading; deactivated ones only when asked for. */
export function accessGroupToRead(stoa: Stoa, groupId: number, options: { allowDeactivated?: boolean } = {}): GroupRow {
  const group = stoa.groups.byId(groupId);
  if (!group || group.name === null) throw invalidUserGroup();
  if (group.deactivated && !options.allowDeactivated) throw groupIsDeactivated();
  return group;
}

/**
 * A group the user may change in the way `setting` governs. System groups follow roles and
 * are never changed by hand.
 */
export function accessGroupForUpdate(
  stoa: Stoa,
  user: UserRow,
  groupId: number,
  setting: GroupSettingName,
  options: { allowDeactivated?: boolean } = {},
): GroupRow {
  const group = accessGroupToRead(stoa, groupId, options);
  if (group.is_system_group) throw insufficientPermission();
  if (userHasRealmPermission(stoa, user, 'realm_can_manage_all_groups')) return group;
  if (holdsUserGroupSetting(stoa, user, group, 'can_manage_group')) return group;
  if (setting !== 'can_manage_group' && holdsUserGroupSetting(stoa, user, group, setting)) return group;
  throw insufficientPermission();
}

/** The settings of a group or channel that a group (or an ad-hoc group containing it) holds. */
function settingsHeldBy(row: Record<string, unknown>, settings: readonly string[], holders: ReadonlySet<number>): string[] {
  return settings.filter((setting) => holders.has(row[`${setting}_id`] as number));
}

/**
 * Where a group is in use, in the shape of Zulip's CANNOT_DEACTIVATE_GROUP_IN_USE objections:
 * as a subgroup of an active named group, or as (part of) a setting of a channel, of an active
 * group or of the organization.
 */
export function groupUsage(stoa: Stoa, group: GroupRow): Array<Record<string, unknown>> {
  const objections: Array<Record<string, unknown>> = [];
  const supergroups = stoa.groups.supergroupIds(group.id).map((id) => stoa.groups.byId(id)!);
  const namedSupergroups = supergroups.filter((g) => g.name !== null && !g.deactivated).map((g) => g.id);
  if (namedSupergroups.length > 0) objections.push({ type: 'subgroup', supergroup_ids: namedSupergroups });
  // A setting uses the group when it names it, or names an ad-hoc group that contains it.
  const holders = new Set([group.id, ...supergroups.filter((g) => g.name === null).map((g) => g.id)]);
  for (const channel of stoa.channels.all()) {
    if (channel.is_archived) continue;
    const settings = settingsHeldBy(channel as unknown as Record<string, unknown>, CHANNEL_GROUP_SETTINGS, holders);
    if (settings.length > 0) objections.push({ type: 'channel', channel_id: channel.id, settings });
  }
  for (const other of stoa.groups.named()) {
    if (other.deactivated) continue;
    const settings = settingsHeldBy(other as unknown as Record<string, unknown>, GROUP_SETTINGS, holders);
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: other.id, settings });
  }
  const realm = REALM_SETTINGS.filter((def) => def.groupSetting && holders.has(realmSetting(stoa, def.key) as number)).map((def) =>
    def.key.replace(/^realm_/, ''),
  );
  if (realm.length > 0) objections.push({ type: 'realm', settings: realm });
  return objections;
}
