import { unixSeconds } from '../clock';
import { sendEvent } from '../events/send';
import type { Stoa } from '../stoa';
import { Role, type RoleValue } from '../users/queries';

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

/** The role groups a user of each role belongs to directly, as Zulip records them. */
const ROLE_GROUPS: Record<RoleValue, readonly string[]> = {
  [Role.OWNER]: ['role:owners'],
  [Role.ADMINISTRATOR]: ['role:administrators'],
  [Role.MODERATOR]: ['role:moderators'],
  // New members count as full members: the organization's waiting period defaults to 0 days.
  [Role.MEMBER]: ['role:members', 'role:fullmembers'],
  [Role.GUEST]: ['role:everyone'],
};

export function createSystemGroups(stoa: Stoa): void {
  const now = unixSeconds(stoa.clock);
  const ids = new Map<string, number>();
  for (const group of SYSTEM_GROUPS) ids.set(group.name, stoa.groups.insert(group.name, group.description, true, now));
  for (const group of SYSTEM_GROUPS) {
    if (group.contains) stoa.groups.addSubgroup(ids.get(group.name)!, ids.get(group.contains)!);
  }
  // Nobody manages or joins a system group by hand: membership follows roles. Everyone may
  // mention one.
  const nobody = ids.get('role:nobody')!;
  const everyone = ids.get('role:everyone')!;
  for (const id of ids.values()) {
    stoa.groups.setSettings(id, {
      can_add_members_group: nobody,
      can_join_group: nobody,
      can_leave_group: nobody,
      can_manage_group: nobody,
      can_mention_group: everyone,
      can_remove_members_group: nobody,
    });
  }
}

/**
 * Tells everyone's clients a group gained or lost a member. Deactivated users are in no
 * group's member list as clients see it, so changes to their memberships are not announced.
 */
export function announceMembership(stoa: Stoa, op: 'add_members' | 'remove_members', groupId: number, userId: number): void {
  if (!stoa.users.byId(userId)!.is_active) return;
  sendEvent(stoa, { type: 'user_group', op, group_id: groupId, user_ids: [userId] }, stoa.users.activeIds());
}

/** Takes a user out of the system groups of their (old) role, telling everyone's clients. */
export function removeFromRoleGroups(stoa: Stoa, userId: number, role: RoleValue): void {
  for (const name of ROLE_GROUPS[role]) {
    const groupId = stoa.groups.byName(name)!.id;
    stoa.groups.removeMember(groupId, userId);
    announceMembership(stoa, 'remove_members', groupId, userId);
  }
}

/** Puts a user in the system groups of their role, telling everyone's clients. */
export function addToRoleGroups(stoa: Stoa, userId: number, role: RoleValue): void {
  for (const name of ROLE_GROUPS[role]) {
    const groupId = stoa.groups.byName(name)!.id;
    stoa.groups.addMember(groupId, userId);
    announceMembership(stoa, 'add_members', groupId, userId);
  }
}
