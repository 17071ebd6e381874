import { endpoint } from '../http/endpoint';
import { ApiError, badRequest, insufficientPermission } from '../http/errors';
import type { ParamSchema } from '../http/validate';
import { userHasRealmPermission } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { requireMemberOrAdmin } from '../users/access';
import type { UserRow } from '../users/queries';
import {
  accessGroupForUpdate,
  accessGroupToRead,
  groupUsage,
  USER_GROUP_SETTINGS,
} from './access';
import {
  changeGroupMembership,
  createUserGroup,
  deactivateUserGroup,
  updateUserGroup,
  type GroupChanges,
  type MembershipChanges,
} from './actions';
import { presentGroup } from './present';
import { GROUP_SETTINGS, type GroupRow, type GroupSettingName } from './queries';
import {
  GROUP_SETTING_UPDATE_SCHEMA,
  GROUP_SETTING_VALUE_SCHEMA,
  parseGroupSettingChange,
  parseGroupSettingValue,
  type GroupSettingChange,
  type GroupSettingValue,
} from './settings';

/** Zulip's longest group name. */
const MAX_GROUP_NAME_LENGTH = 100;
/** Prefixes that would make a group name read as a role, a mention or another kind of link. */
const RESERVED_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

const IDS: ParamSchema = { type: 'array', items: { type: 'integer' } };
const GROUP_ID_PATTERN = { user_group_id: /^\d+$/ };

function checkGroupName(name: string): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if (name.length > MAX_GROUP_NAME_LENGTH) {
    throw badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  }
  const prefix = RESERVED_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) throw badRequest(`User group name cannot start with '${prefix}'.`);
  return name;
}

function checkNameIsFree(stoa: Stoa, name: string, groupId?: number): void {
  const holder = stoa.groups.byNameAnyCase(name);
  if (holder && holder.id !== groupId) throw badRequest(`User group '${name}' already exists.`);
}

/** Users that may be put in or taken out of a group: active accounts of this organization. */
function checkUserIds(stoa: Stoa, userIds: readonly number[]): number[] {
  const unique = [...new Set(userIds)];
  for (const userId of unique) {
    const target = stoa.users.byId(userId);
    if (!target || !target.is_active || target.is_system_bot) throw badRequest(`Invalid user ID: ${userId}`);
  }
  return unique;
}

/** Groups that may become (or stop being) subgroups: active named groups. */
function checkSubgroupIds(stoa: Stoa, groupIds: readonly number[]): number[] {
  const unique = [...new Set(groupIds)];
  for (const groupId of unique) {
    const group = stoa.groups.byId(groupId);
    if (!group || group.name === null) throw badRequest(`Invalid user group ID: ${groupId}`);
  }
  for (const groupId of unique) {
    if (stoa.groups.byId(groupId)!.deactivated) throw badRequest('User group is deactivated.');
  }
  return unique;
}

/** New subgroups must be new, and must not contain the group already (no cycles). */
function checkSubgroupsToAdd(stoa: Stoa, group: GroupRow, subgroupIds: readonly number[]): void {
  const existing = new Set(stoa.groups.subgroupIds(group.id));
  for (const id of subgroupIds) {
    if (existing.has(id)) throw badRequest(`User group ${id} is already a subgroup of this group.`);
  }
  const below = new Set(subgroupIds.flatMap((id) => [id, ...stoa.groups.recursiveSubgroupIds(id)]));
  if (below.has(group.id)) {
    throw badRequest(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
  }
}

function checkSubgroupsToRemove(stoa: Stoa, group: GroupRow, subgroupIds: readonly number[]): void {
  const existing = new Set(stoa.groups.subgroupIds(group.id));
  for (const id of subgroupIds) {
    if (!existing.has(id)) throw badRequest(`User group ${id} is not a subgroup of this group.`);
  }
}

type CreateGroupParams = Partial<Record<GroupSettingName, GroupSettingValue>> & {
  name: string;
  description: string;
  members: number[];
  subgroups?: number[];
};

export const createGroupView = endpoint<CreateGroupParams>({
  params: {
    properties: {
      name: { type: 'string' },
      description: { type: 'string' },
      members: IDS,
      subgroups: IDS,
      ...Object.fromEntries(GROUP_SETTINGS.map((s) => [s, GROUP_SETTING_VALUE_SCHEMA])),
    },
    required: ['name', 'description', 'members'],
  },
  // Zulip's require_user_group_create_permission, before the parameters.
  authorize: (user, stoa) => {
    requireMemberOrAdmin(user);
    if (!userHasRealmPermission(stoa, user, 'realm_can_create_groups')) throw insufficientPermission();
  },
  view: ({ stoa, user, params }) => {
    const members = checkUserIds(stoa, params.members);
    const name = checkGroupName(params.name);
    const settings: Partial<Record<GroupSettingName, GroupSettingValue>> = {};
    for (const setting of GROUP_SETTINGS) {
      const value = params[setting];
      if (value !== undefined) settings[setting] = parseGroupSettingValue(stoa, setting, USER_GROUP_SETTINGS[setting].permission, value);
    }
    checkNameIsFree(stoa, name);
    // The creator may give the new group subgroups whatever its settings say.
    const subgroups = checkSubgroupIds(stoa, params.subgroups ?? []);
    const groupId = createUserGroup(stoa, user, { name, description: params.description, members, subgroups, settings });
    return { group_id: groupId };
  },
});

export const getGroups = endpoint<{ include_deactivated_groups: boolean }>({
  params: { properties: { include_deactivated_groups: { type: 'boolean', default: false } } },
  authorize: requireMemberOrAdmin,
  view: ({ stoa, params }) => {
    const groups = stoa.groups.named().filter((group) => params.include_deactivated_groups || !group.deactivated);
    return { user_groups: groups.map((group) => presentGroup(stoa, group)) };
  },
});

type UpdateGroupParams = Partial<Record<GroupSettingName, GroupSettingChange>> & {
  user_group_id: number;
  name?: string;
  description?: string;
  deactivated?: boolean;
};

export const updateGroupView = endpoint<UpdateGroupParams>({
  params: {
    properties: {
      user_group_id: { type: 'integer' },
      name: { type: 'string' },
      description: { type: 'string' },
      deactivated: { type: 'boolean' },
      ...Object.fromEntries(GROUP_SETTINGS.map((s) => [s, GROUP_SETTING_UPDATE_SCHEMA])),
    },
    required: ['user_group_id'],
  },
  pathPatterns: GROUP_ID_PATTERN,
  authorize: requireMemberOrAdmin,
  // Everything is checked before anything changes, so a refused request changes nothing.
  view: ({ stoa, user, params }) => {
    const asked = params.name !== undefined || params.description !== undefined || params.deactivated !== undefined;
    if (!asked && GROUP_SETTINGS.every((s) => params[s] === undefined)) throw badRequest('No new data supplied');
    // Deactivated groups can be renamed, described, reconfigured and reactivated.
    const group = accessGroupForUpdate(stoa, user, params.user_group_id, 'can_manage_group', { allowDeactivated: true });
    const changes: GroupChanges = { settings: {} };
    if (params.name !== undefined && params.name !== group.name) {
      changes.name = checkGroupName(params.name);
      checkNameIsFree(stoa, changes.name, group.id);
    }
    if (params.description !== undefined && params.description !== group.description) changes.description = params.description;
    // Deactivating goes through its own endpoint, which checks that the group is unused.
    if (params.deactivated === false && group.deactivated) changes.reactivate = true;
    for (const setting of GROUP_SETTINGS) {
      const change = params[setting];
      if (change === undefined) continue;
      const { permission } = USER_GROUP_SETTINGS[setting];
      const value = parseGroupSettingChange(stoa, setting, permission, change, group[`${setting}_id`]!);
      if (value !== undefined) changes.settings![setting] = value;
    }
    updateUserGroup(stoa, group.id, changes);
    return {};
  },
});

export const deactivateGroupView = endpoint<{ user_group_id: number }>({
  params: { properties: { user_group_id: { type: 'integer' } }, required: ['user_group_id'] },
  pathPatterns: GROUP_ID_PATTERN,
  view: ({ stoa, user, params }) => {
    const group = accessGroupForUpdate(stoa, user, params.user_group_id, 'can_manage_group');
    const objections = groupUsage(stoa, group);
    if (objections.length > 0) {
      throw new ApiError('CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', 400, { objections });
    }
    deactivateUserGroup(stoa, group.id);
    return {};
  },
});

/**
 * Joining or leaving needs can_join_group or can_leave_group; anyone who may add (or remove)
 * members at all may do the same for themselves.
 */
function accessGroupForMembers(stoa: Stoa, user: UserRow, groupId: number, userIds: readonly number[], adding: boolean): GroupRow {
  const general = adding ? 'can_add_members_group' : 'can_remove_members_group';
  const own = adding ? 'can_join_group' : 'can_leave_group';
  const options = { allowDeactivated: true };
  if (userIds.length === 1 && userIds[0] === user.id) {
    try {
      return accessGroupForUpdate(stoa, user, groupId, own, options);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return accessGroupForUpdate(stoa, user, groupId, general, options);
    }
  }
  return accessGroupForUpdate(stoa, user, groupId, general, options);
}

interface MembershipParams {
  user_group_id: number;
  add?: number[];
  delete?: number[];
  add_subgroups?: number[];
  delete_subgroups?: number[];
}

/**
 * Checks each kind of change in turn, in Zulip's order (add, delete, add_subgroups,
 * delete_subgroups), each against its own permission; nothing changes unless all pass.
 */
function checkMembershipChanges(stoa: Stoa, user: UserRow, params: MembershipParams): MembershipChanges {
  const groupId = params.user_group_id;
  const changes: MembershipChanges = { add: [], remove: [], addSubgroups: [], removeSubgroups: [] };
  if (params.add?.length) {
    const group = accessGroupForMembers(stoa, user, groupId, params.add, true);
    changes.add = checkUserIds(stoa, params.add);
    for (const id of changes.add) {
      if (stoa.groups.isDirectMember(group.id, id)) throw badRequest(`User ${id} is already a member of this group`);
    }
  }
  if (params.delete?.length) {
    changes.remove = checkUserIds(stoa, params.delete);
    const group = accessGroupForMembers(stoa, user, groupId, params.delete, false);
    for (const id of changes.remove) {
      if (!stoa.groups.isDirectMember(group.id, id)) throw badRequest(`There is no member '${id}' in this user group`);
    }
  }
  if (params.add_subgroups?.length) {
    const group = accessGroupForUpdate(stoa, user, groupId, 'can_add_members_group', { allowDeactivated: true });
    changes.addSubgroups = checkSubgroupIds(stoa, params.add_subgroups);
    checkSubgroupsToAdd(stoa, group, changes.addSubgroups);
  }
  if (params.delete_subgroups?.length) {
    const group = accessGroupForUpdate(stoa, user, groupId, 'can_manage_group', { allowDeactivated: true });
    changes.removeSubgroups = checkSubgroupIds(stoa, params.delete_subgroups);
    checkSubgroupsToRemove(stoa, group, changes.removeSubgroups);
  }
  return changes;
}

export const updateMembersView = endpoint<MembershipParams>({
  params: {
    properties: { user_group_id: { type: 'integer' }, add: IDS, delete: IDS, add_subgroups: IDS, delete_subgroups: IDS },
    required: ['user_group_id'],
  },
  pathPatterns: GROUP_ID_PATTERN,
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user, params }) => {
    if (!params.add?.length && !params.delete?.length && !params.add_subgroups?.length && !params.delete_subgroups?.length) {
      throw badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
    }
    changeGroupMembership(stoa, params.user_group_id, checkMembershipChanges(stoa, user, params));
    return {};
  },
});

export const updateSubgroupsView = endpoint<{ user_group_id: number; add?: number[]; delete?: number[] }>({
  params: { properties: { user_group_id: { type: 'integer' }, add: IDS, delete: IDS }, required: ['user_group_id'] },
  pathPatterns: GROUP_ID_PATTERN,
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user, params }) => {
    if (!params.add?.length && !params.delete?.length) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
    const changes = checkMembershipChanges(stoa, user, {
      user_group_id: params.user_group_id,
      add_subgroups: params.add,
      delete_subgroups: params.delete,
    });
    changeGroupMembership(stoa, params.user_group_id, changes);
    return {};
  },
});

const DIRECT_MEMBER_ONLY: ParamSchema = { type: 'boolean', default: false };

export const getMembersView = endpoint<{ user_group_id: number; direct_member_only: boolean }>({
  params: { properties: { user_group_id: { type: 'integer' }, direct_member_only: DIRECT_MEMBER_ONLY }, required: ['user_group_id'] },
  pathPatterns: GROUP_ID_PATTERN,
  authorize: requireMemberOrAdmin,
  view: ({ stoa, params }) => {
    const group = accessGroupToRead(stoa, params.user_group_id);
    const members = params.direct_member_only ? stoa.groups.directMemberIds(group.id) : stoa.groups.recursiveMemberIds(group.id);
    return { members };
  },
});

export const getMembershipView = endpoint<{ user_group_id: number; user_id: number; direct_member_only: boolean }>({
  params: {
    properties: { user_group_id: { type: 'integer' }, user_id: { type: 'integer' }, direct_member_only: DIRECT_MEMBER_ONLY },
    required: ['user_group_id', 'user_id'],
  },
  pathPatterns: { ...GROUP_ID_PATTERN, user_id: /^\d+$/ },
  authorize: requireMemberOrAdmin,
  view: ({ stoa, params }) => {
    const group = accessGroupToRead(stoa, params.user_group_id);
    const target = stoa.users.byId(params.user_id);
    if (!target || target.is_system_bot) throw badRequest('No such user');
    const members = params.direct_member_only ? stoa.groups.directMemberIds(group.id) : stoa.groups.recursiveMemberIds(group.id);
    return { is_user_group_member: members.includes(target.id) };
  },
});

export const getSubgroupsView = endpoint<{ user_group_id: number; direct_subgroup_only: boolean }>({
  params: {
    properties: { user_group_id: { type: 'integer' }, direct_subgroup_only: { type: 'boolean', default: false } },
    required: ['user_group_id'],
  },
  pathPatterns: GROUP_ID_PATTERN,
  authorize: requireMemberOrAdmin,
  view: ({ stoa, params }) => {
    const group = accessGroupToRead(stoa, params.user_group_id);
    const subgroups = params.direct_subgroup_only ? stoa.groups.subgroupIds(group.id) : stoa.groups.recursiveSubgroupIds(group.id);
    return { subgroups };
  },
});
