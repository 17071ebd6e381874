import { ApiError, badRequest } from '../http/errors';
import type { ParamSchema } from '../http/validate';
import type { Stoa } from '../stoa';
import { Role, type UserRow } from '../users/queries';

/**
 * Group settings: permissions held by a user group. A value is a named group's ID, or
 * {direct_members, direct_subgroups} for an ad-hoc set, which is stored as an anonymous group
 * owned by that one setting. Every "may user U do S" question in Stoa goes through here.
 */

/** A group-setting value as clients send and receive it. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** The JSON schema of a group-setting value parameter. */
export const GROUP_SETTING_VALUE_SCHEMA: ParamSchema = {
  oneOf: [
    { type: 'integer' },
    {
      type: 'object',
      properties: {
        direct_members: { type: 'array', items: { type: 'integer' } },
        direct_subgroups: { type: 'array', items: { type: 'integer' } },
      },
      required: ['direct_members', 'direct_subgroups'],
      additionalProperties: false,
    },
  ],
};

/** The `{new, old}` object that changes a group setting of an existing object. */
export const GROUP_SETTING_UPDATE_SCHEMA: ParamSchema = {
  type: 'object',
  properties: { new: GROUP_SETTING_VALUE_SCHEMA, old: GROUP_SETTING_VALUE_SCHEMA },
  required: ['new'],
  additionalProperties: false,
};

/** Which groups a setting may name, as Zulip configures each setting. */
export interface GroupPermission {
  /** Only a system group (role:...) may be named. */
  requireSystemGroup: boolean;
  allowInternetGroup: boolean;
  allowNobodyGroup: boolean;
  /** Also decides whether guests can hold the setting at all. */
  allowEveryoneGroup: boolean;
  /** When not empty, the only system groups allowed. */
  allowedSystemGroups: readonly string[];
}

/**
 * One entry of /register's server_supported_permission_settings: what a setting may name, the
 * group it starts as (a system group's name, or a pseudo-name such as `group_creator` for a
 * group made of whoever created the object), and for user-group settings what system groups get.
 */
export function describePermission(
  permission: GroupPermission,
  defaultGroupName: string,
  defaultForSystemGroups: string | null,
): Record<string, unknown> {
  return {
    require_system_group: permission.requireSystemGroup,
    allow_internet_group: permission.allowInternetGroup,
    allow_nobody_group: permission.allowNobodyGroup,
    allow_everyone_group: permission.allowEveryoneGroup,
    default_group_name: defaultGroupName,
    default_for_system_groups: defaultForSystemGroups,
    allowed_system_groups: [...permission.allowedSystemGroups],
  };
}

/** Whether an active user holds the setting whose value is the group `groupId`. */
export function holdsGroupSetting(stoa: Stoa, user: UserRow, groupId: number, permission: GroupPermission): boolean {
  if (!user.is_active) return false;
  // A setting that may not name role:everyone is never held by guests, whatever its group.
  if (!permission.allowEveryoneGroup && user.role === Role.GUEST) return false;
  return stoa.groups.hasMember(groupId, user.id);
}

/** The value a group stands for: its ID if it has a name, else its members and subgroups. */
export function groupSettingValue(stoa: Stoa, groupId: number): GroupSettingValue {
  const group = stoa.groups.byId(groupId)!;
  if (group.name !== null) return group.id;
  return { direct_members: [...stoa.groups.directMemberIds(group.id)], direct_subgroups: [...stoa.groups.subgroupIds(group.id)] };
}

function sortedUnique(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * Checks a value against the setting's rules and brings it to its simplest form: a set that
 * is exactly one group becomes that group, and an empty set becomes role:nobody.
 */
export function parseGroupSettingValue(
  stoa: Stoa,
  setting: string,
  permission: GroupPermission,
  value: GroupSettingValue,
): GroupSettingValue {
  if (typeof value === 'number') {
    const group = stoa.groups.byId(value);
    if (!group || group.name === null) throw badRequest('Invalid user group');
    if (group.deactivated) throw badRequest('User group is deactivated.');
    const name = group.name;
    const refuse = () => badRequest(`'${setting}' setting cannot be set to '${name}' group.`);
    if (name === 'role:internet' && !permission.allowInternetGroup) throw refuse();
    if (name === 'role:everyone' && !permission.allowEveryoneGroup) throw refuse();
    if (name === 'role:nobody' && !permission.allowNobodyGroup) throw refuse();
    if (group.is_system_group && permission.allowedSystemGroups.length > 0 && !permission.allowedSystemGroups.includes(name)) {
      throw refuse();
    }
    if (!group.is_system_group && permission.requireSystemGroup) {
      throw new ApiError('SYSTEM_GROUP_REQUIRED', `'${setting}' must be a system user group.`);
    }
    return value;
  }
  const members = sortedUnique(value.direct_members);
  const subgroups = sortedUnique(value.direct_subgroups);
  for (const userId of members) {
    const user = stoa.users.byId(userId);
    if (!user || !user.is_active || user.is_system_bot) throw badRequest(`Invalid user ID: ${userId}`);
  }
  for (const groupId of subgroups) {
    const group = stoa.groups.byId(groupId);
    if (!group || group.name === null) throw badRequest(`Invalid user group ID: ${groupId}`);
    if (group.deactivated) throw badRequest('User group is deactivated.');
  }
  if (members.length === 0 && subgroups.length === 1) return parseGroupSettingValue(stoa, setting, permission, subgroups[0]);
  if (members.length === 0 && subgroups.length === 0) return stoa.groups.byName('role:nobody')!.id;
  return { direct_members: members, direct_subgroups: subgroups };
}

/** Whether two parsed values name the same holders, as the `old` check of an update compares them. */
export function sameGroupSettingValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const same = (x: number[], y: number[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return same(sortedUnique(a.direct_members), sortedUnique(b.direct_members)) && same(sortedUnique(a.direct_subgroups), sortedUnique(b.direct_subgroups));
}

/** A `{new, old}` change of a group setting, as clients send it. */
export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

/**
 * Checks a change of a setting currently held by the group `currentGroupId`: refuses it when
 * `old` no longer describes the current holders, and answers the parsed new value, or
 * undefined when the new value names the holders already there.
 */
export function parseGroupSettingChange(
  stoa: Stoa,
  setting: string,
  permission: GroupPermission,
  change: GroupSettingChange,
  currentGroupId: number,
): GroupSettingValue | undefined {
  const current = groupSettingValue(stoa, currentGroupId);
  if (change.old !== undefined && !sameGroupSettingValue(parseGroupSettingValue(stoa, setting, permission, change.old), current)) {
    throw expectationMismatch();
  }
  const value = parseGroupSettingValue(stoa, setting, permission, change.new);
  return sameGroupSettingValue(value, current) ? undefined : value;
}

/**
 * The group to store for a parsed value: the named group itself, or a new anonymous group
 * holding the set. Call inside a transaction.
 */
export function groupForValue(stoa: Stoa, value: GroupSettingValue, now: number): number {
  if (typeof value === 'number') return value;
  const id = stoa.groups.insert(null, '', false, now);
  for (const userId of value.direct_members) stoa.groups.addMember(id, userId);
  for (const groupId of value.direct_subgroups) stoa.groups.addSubgroup(id, groupId);
  return id;
}

/** The error of an update whose `old` no longer matches, so a client does not overwrite a newer change. */
export function expectationMismatch(): ApiError {
  return new ApiError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
}
