import type { StateContext } from '../events/state-context';
import { JsonText } from '../http/json';
import type { Stoa } from '../stoa';
import { KeptWhileUnwritten } from '../table-writes';
import { presentGroup } from './present';

/** What the groups' state is built from: the groups, their members (active ones only) and subgroups. */
const GROUP_TABLES = ['user_groups', 'user_group_members', 'user_group_subgroups', 'users'];

const keptGroups = new WeakMap<Stoa, Map<boolean, KeptWhileUnwritten<JsonText>>>();

/**
 * Register state for fetch type `realm_user_groups`: every named group the client can handle.
 * The same for everyone who can handle the same groups, so it is kept as JSON until a group,
 * a membership or a user row is written, rather than read and serialized for each registration.
 */
export function userGroupsState({ stoa, queue }: StateContext): Record<string, unknown> {
  const withDeactivated = queue.capabilities.include_deactivated_groups;
  let shapes = keptGroups.get(stoa);
  if (!shapes) keptGroups.set(stoa, (shapes = new Map()));
  let kept = shapes.get(withDeactivated);
  if (!kept) shapes.set(withDeactivated, (kept = new KeptWhileUnwritten(stoa.tableWrites, GROUP_TABLES)));
  return {
    realm_user_groups: kept.get(() => {
      const groups = stoa.groups.named().filter((group) => !group.deactivated || withDeactivated);
      return new JsonText(JSON.stringify(groups.map((group) => presentGroup(stoa, group))));
    }),
  };
}
