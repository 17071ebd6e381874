import type { UserGroup } from '../types';

/**
 * The user-group screens' addresses, as Zulip's web app writes them: `#groups/your` (the
 * groups one belongs to), `#groups/all`, `#groups/new` (the creation form) and
 * `#groups/ID/name/tab`, one group open at its general, members or permissions part.
 */
export type GroupTab = 'general' | 'members' | 'permissions';

export interface GroupsAddress {
  list: 'your' | 'all';
  creating: boolean;
  groupId?: number;
  tab: GroupTab;
}

/** Reads the parts after `#groups/`; undefined (the old `#organization/user-groups-admin`) is the whole list. */
export function parseGroupsAddress(parts: readonly string[] | undefined): GroupsAddress {
  const [first = 'all', , tab] = parts ?? [];
  if (/^\d+$/.test(first)) {
    return { list: 'all', creating: false, groupId: Number(first), tab: tab === 'members' || tab === 'permissions' ? tab : 'general' };
  }
  return { list: first === 'your' ? 'your' : 'all', creating: first === 'new', tab: 'general' };
}

/** The address of one group's tab. */
export function groupHash(group: Pick<UserGroup, 'id' | 'name'>, tab: GroupTab = 'general'): string {
  return `#groups/${group.id}/${encodeURIComponent(group.name.replace(/ /g, '-'))}/${tab}`;
}
