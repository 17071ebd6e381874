import type { Stoa } from '../stoa';
import { GROUP_SETTINGS, type GroupRow } from './queries';

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** A named group is referred to by its ID; an anonymous one is spelled out as its members. */
export function groupSettingValue(stoa: Stoa, groupId: number): GroupSettingValue {
  const group = stoa.groups.byId(groupId)!;
  if (group.name !== null) return group.id;
  return { direct_members: stoa.groups.directMemberIds(group.id), direct_subgroups: stoa.groups.subgroupIds(group.id) };
}

/** A UserGroup object of the API. */
export function presentGroup(stoa: Stoa, group: GroupRow): Record<string, unknown> {
  const presented: Record<string, unknown> = {
    id: group.id,
    name: group.name,
    description: group.description,
    date_created: group.date_created,
    creator_id: group.creator_id,
    members: stoa.groups.directMemberIds(group.id),
    direct_subgroup_ids: stoa.groups.subgroupIds(group.id),
    is_system_group: group.is_system_group === 1,
    deactivated: group.deactivated === 1,
  };
  for (const setting of GROUP_SETTINGS) presented[setting] = groupSettingValue(stoa, group[`${setting}_id`]!);
  return presented;
}
