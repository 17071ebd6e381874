import { announceChannelAccessChange, visibleChannelIds } from '../channels/actions';
import { unixSeconds } from '../clock';
import type { Event, EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { realmSetting } from '../realm/settings-store';
import { Role, type RoleValue, type UserRow } from '../users/queries';
import { USER_GROUP_SETTINGS } from './access';
import { presentGroup } from './present';
import { GROUP_SETTINGS, type GroupRow, type GroupSettingName } from './queries';
import { groupForValue, groupSettingValue, type GroupSettingValue } from './settings';

/**
 * The system groups of every organization, each listed with the group it directly contains:
 * together they form the chain internet > everyone > members > fullmembers > moderators >
 * administrators > owners, so a group-setting value naming one role group includes every
 * higher role. role:nobody stays empty.
 */
const SYSTEM_GROUPS: ReadonlyArray<{ name: string; description: string; contains?: string }> = [
  { name: 'role:owners', description: 'Owners of this organization' },
  { name: 'role:administrators', description: 'Administrators of this organization, including owners', contains: 'role:owners' },
  { name: 'role:moderators', description: 'Moderators of this organization, including administrators', contains: 'role:administrators' },
  { name: 'role:fullmembers', description: 'Members of this organization, not including new accounts and guests', contains: 'role:moderators' },
  { name: 'role:members', description: 'Members of this organization, not including guests', contains: 'role:fullmembers' },
  { name: 'role:everyone', description: 'Everyone in this organization, including guests', contains: 'role:members' },
  { name: 'role:internet', description: 'Everyone on the Internet', contains: 'role:everyone' },
  { name: 'role:nobody', description: 'Nobody' },
];

/**
 * The role groups a user of each role belongs to directly, as Zulip records them. A member is
 * also a direct member of role:fullmembers once their account is older than the organization's
 * waiting period (see full-members.ts).
 */
const ROLE_GROUPS: Record<RoleValue, readonly string[]> = {
  [Role.OWNER]: ['role:owners'],
  [Role.ADMINISTRATOR]: ['role:administrators'],
  [Role.MODERATOR]: ['role:moderators'],
  [Role.MEMBER]: ['role:members'],
  [Role.GUEST]: ['role:everyone'],
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether a member has waited the organization's waiting period, making them a full member. */
export function waitedLongEnough(stoa: Stoa, user: UserRow): boolean {
  return user.date_joined_ms + fullMemberWaitMs(stoa) <= stoa.clock.now();
}

export function fullMemberWaitMs(stoa: Stoa): number {
  return (realmSetting(stoa, 'realm_waiting_period_threshold') as number) * DAY_MS;
}

/** The role groups a user of the role belongs to directly now. */
function roleGroupsOf(stoa: Stoa, userId: number, role: RoleValue): readonly string[] {
  const user = stoa.users.byId(userId)!;
  return role === Role.MEMBER && waitedLongEnough(stoa, user) ? [...ROLE_GROUPS[role], 'role:fullmembers'] : ROLE_GROUPS[role];
}

export function createSystemGroups(stoa: Stoa): void {
  const now = unixSeconds(stoa.clock);
  const ids = new Map<string, number>();
  for (const group of SYSTEM_GROUPS) ids.set(group.name, stoa.groups.insert(group.name, group.description, true, now));
  for (const group of SYSTEM_GROUPS) {
    if (group.contains) stoa.groups.addSubgroup(ids.get(group.name)!, ids.get(group.contains)!);
  }
  const settings = Object.fromEntries(
    Object.entries(USER_GROUP_SETTINGS).map(([setting, { forSystemGroups }]) => [setting, ids.get(forSystemGroups)!]),
  ) as Record<GroupSettingName, number>;
  for (const id of ids.values()) stoa.groups.setSettings(id, settings);
}

/**
 * Tells everyone's clients a named group gained or lost a member. Deactivated users are in no
 * group's member list as clients see it, so changes to their memberships are not announced;
 * nor are those of ad-hoc setting groups, which clients know only as setting values.
 */
export function announceMembership(stoa: Stoa, op: 'add_members' | 'remove_members', groupId: number, userId: number): void {
  const group = stoa.groups.byId(groupId)!;
  if (!stoa.users.byId(userId)!.is_active || group.name === null) return;
  announceGroupEvent(stoa, group, { type: 'user_group', op, group_id: groupId, user_ids: [userId] });
}

/** Takes a user out of the system groups of their (old) role, telling everyone's clients. */
export function removeFromRoleGroups(stoa: Stoa, userId: number, role: RoleValue): void {
  for (const name of [...ROLE_GROUPS[role], ...(role === Role.MEMBER ? ['role:fullmembers'] : [])]) {
    const groupId = stoa.groups.byName(name)!.id;
    if (!stoa.groups.directMemberIds(groupId).includes(userId)) continue;
    stoa.groups.removeMember(groupId, userId);
    announceMembership(stoa, 'remove_members', groupId, userId);
  }
}

/** Puts a user in the system groups of their role, telling everyone's clients. */
export function addToRoleGroups(stoa: Stoa, userId: number, role: RoleValue): void {
  for (const name of roleGroupsOf(stoa, userId, role)) {
    const groupId = stoa.groups.byName(name)!.id;
    stoa.groups.addMember(groupId, userId);
    announceMembership(stoa, 'add_members', groupId, userId);
  }
}

/**
 * Sends a user_group event to everyone. Clients without the include_deactivated_groups
 * capability dropped the group when it was deactivated, so they hear nothing of it until it
 * is reactivated.
 */
function announceGroupEvent(stoa: Stoa, group: GroupRow, event: Event): void {
  const deliverable = group.deactivated
    ? (queue: EventQueue) => (queue.settings.capabilities.include_deactivated_groups ? event : null)
    : event;
  sendEvent(stoa, deliverable, stoa.users.activeIds());
}

/**
 * Group membership can grant sight of private channels (through their group settings): runs
 * `change` and then tells each of `userIds` which channels appeared or vanished for them.
 */
export function trackingChannelAccess(stoa: Stoa, userIds: readonly number[], change: () => void): void {
  const users = userIds.map((id) => stoa.users.byId(id)!).filter((user) => user.is_active);
  const before = new Map(users.map((user) => [user.id, visibleChannelIds(stoa, user)]));
  change();
  for (const user of users) announceChannelAccessChange(stoa, user.role === Role.GUEST, before.get(user.id)!, user);
}

export interface NewGroupSpec {
  name: string;
  description: string;
  members: readonly number[];
  subgroups: readonly number[];
  /** Parsed values for the settings the creator chose; the rest get their defaults. */
  settings: Partial<Record<GroupSettingName, GroupSettingValue>>;
}

/** Creates a user group, telling everyone; answers its ID. */
export function createUserGroup(stoa: Stoa, creator: UserRow, spec: NewGroupSpec): number {
  return write(stoa, () => {
    const now = unixSeconds(stoa.clock);
    const id = stoa.groups.insert(spec.name, spec.description, false, now, creator.id);
    const settings = {} as Record<GroupSettingName, number>;
    for (const setting of GROUP_SETTINGS) {
      const fallback = USER_GROUP_SETTINGS[setting].default;
      const value: GroupSettingValue =
        spec.settings[setting] ??
        (fallback === 'creator' ? { direct_members: [creator.id], direct_subgroups: [] } : stoa.groups.byName(fallback)!.id);
      settings[setting] = groupForValue(stoa, value, now);
    }
    stoa.groups.setSettings(id, settings);
    trackingChannelAccess(stoa, spec.members, () => {
      for (const userId of spec.members) stoa.groups.addMember(id, userId);
    });
    const group = stoa.groups.byId(id)!;
    sendEvent(stoa, { type: 'user_group', op: 'add', group: presentGroup(stoa, group) }, stoa.users.activeIds());
    if (spec.subgroups.length > 0) changeSubgroups(stoa, group, spec.subgroups, 'add_subgroups');
    return id;
  });
}

/** What PATCH /user_groups/{id} changes, already checked; absent fields stay as they are. */
export interface GroupChanges {
  name?: string;
  description?: string;
  reactivate?: boolean;
  settings?: Partial<Record<GroupSettingName, GroupSettingValue>>;
}

/** Applies checked changes to a group in one transaction, one update event per change. */
export function updateUserGroup(stoa: Stoa, groupId: number, changes: GroupChanges): void {
  write(stoa, () => {
    const update = (data: Record<string, unknown>) =>
      announceGroupEvent(stoa, stoa.groups.byId(groupId)!, { type: 'user_group', op: 'update', group_id: groupId, data });
    if (changes.name !== undefined) {
      stoa.groups.rename(groupId, changes.name);
      update({ name: changes.name });
    }
    if (changes.description !== undefined) {
      stoa.groups.setDescription(groupId, changes.description);
      update({ description: changes.description });
    }
    if (changes.reactivate) reactivateUserGroup(stoa, groupId);
    const now = unixSeconds(stoa.clock);
    for (const [setting, value] of Object.entries(changes.settings ?? {}) as Array<[GroupSettingName, GroupSettingValue]>) {
      const holder = groupForValue(stoa, value, now);
      stoa.groups.setSetting(groupId, setting, holder);
      update({ [setting]: groupSettingValue(stoa, holder) });
    }
  });
}

/**
 * Clients that handle deactivated groups learn that the group is active again; the others,
 * which dropped it, get it back whole.
 */
function reactivateUserGroup(stoa: Stoa, groupId: number): void {
  stoa.groups.setDeactivated(groupId, false);
  const group = stoa.groups.byId(groupId)!;
  const event = (queue: EventQueue) =>
    queue.settings.capabilities.include_deactivated_groups
      ? { type: 'user_group', op: 'update', group_id: groupId, data: { deactivated: false } }
      : { type: 'user_group', op: 'add', group: presentGroup(stoa, group) };
  sendEvent(stoa, event, stoa.users.activeIds());
}

/** Deactivates a group; clients that cannot show deactivated groups drop it. */
export function deactivateUserGroup(stoa: Stoa, groupId: number): void {
  write(stoa, () => {
    stoa.groups.setDeactivated(groupId, true);
    const event = (queue: EventQueue) =>
      queue.settings.capabilities.include_deactivated_groups
        ? { type: 'user_group', op: 'update', group_id: groupId, data: { deactivated: true } }
        : { type: 'user_group', op: 'remove', group_id: groupId };
    sendEvent(stoa, event, stoa.users.activeIds());
  });
}

function changeSubgroups(stoa: Stoa, group: GroupRow, subgroupIds: readonly number[], op: 'add_subgroups' | 'remove_subgroups'): void {
  // Everyone in the subgroups gains or loses what the group grants.
  const affected = new Set(subgroupIds.flatMap((id) => stoa.groups.recursiveMemberIds(id)));
  trackingChannelAccess(stoa, [...affected], () => {
    for (const subgroupId of subgroupIds) {
      if (op === 'add_subgroups') stoa.groups.addSubgroup(group.id, subgroupId);
      else stoa.groups.removeSubgroup(group.id, subgroupId);
    }
  });
  announceGroupEvent(stoa, group, { type: 'user_group', op, group_id: group.id, direct_subgroup_ids: [...subgroupIds] });
}

/** What POST /user_groups/{id}/members (or /subgroups) changes, already checked. */
export interface MembershipChanges {
  add: readonly number[];
  remove: readonly number[];
  addSubgroups: readonly number[];
  removeSubgroups: readonly number[];
}

/** Changes a group's members and subgroups in one transaction, in Zulip's order. */
export function changeGroupMembership(stoa: Stoa, groupId: number, changes: MembershipChanges): void {
  write(stoa, () => {
    const group = stoa.groups.byId(groupId)!;
    for (const [userIds, op] of [
      [changes.add, 'add_members'],
      [changes.remove, 'remove_members'],
    ] as const) {
      if (userIds.length === 0) continue;
      trackingChannelAccess(stoa, userIds, () => {
        for (const userId of userIds) {
          if (op === 'add_members') stoa.groups.addMember(groupId, userId);
          else stoa.groups.removeMember(groupId, userId);
        }
      });
      announceGroupEvent(stoa, group, { type: 'user_group', op, group_id: groupId, user_ids: [...userIds] });
    }
    if (changes.addSubgroups.length > 0) changeSubgroups(stoa, group, changes.addSubgroups, 'add_subgroups');
    if (changes.removeSubgroups.length > 0) changeSubgroups(stoa, group, changes.removeSubgroups, 'remove_subgroups');
  });
}

/**
 * Clients drop a deactivated user from every group, ad-hoc ones included; when the user comes
 * back, each user group setting whose ad-hoc group names them is sent again. Call inside `write`.
 */
export function announceReturningGroupSettingHolder(stoa: Stoa, userId: number): void {
  for (const group of stoa.groups.named()) {
    for (const setting of GROUP_SETTINGS) {
      const holder = stoa.groups.byId(group[`${setting}_id`]!)!;
      if (holder.name !== null || !stoa.groups.isDirectMember(holder.id, userId)) continue;
      announceGroupEvent(stoa, group, { type: 'user_group', op: 'update', group_id: group.id, data: { [setting]: groupSettingValue(stoa, holder.id) } });
    }
  }
}
