import type { StateContext } from '../events/state-context';

/** Register state for fetch type `muted_users`. */
export function mutedUsersState({ stoa, user }: StateContext): Record<string, unknown> {
  return { muted_users: stoa.mutedUsers.forUser(user.id) };
}
