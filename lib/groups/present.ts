import type { Stoa } from '../stoa';
import { GROUP_SETTINGS, type GroupRow } from './queries';
import { groupSettingValue } from './settings';

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
