import type { StateContext } from '../events/state-context';
import { presentGroup } from './present';

/** Register state for fetch type `realm_user_groups`: every named group the client can handle. */
export function userGroupsState({ stoa, queue }: StateContext): Record<string, unknown> {
  const groups = stoa.groups
    .named()
    .filter((group) => !group.deactivated || queue.capabilities.include_deactivated_groups);
  return { realm_user_groups: groups.map((group) => presentGroup(stoa, group)) };
}
