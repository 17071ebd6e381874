import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { canAccessUser } from '../users/access';
import type { UserRow } from '../users/queries';
import { muteUser, unmuteUser } from './actions';

const MUTED_USER_PARAMS = { properties: { muted_user_id: { type: 'integer' } }, required: ['muted_user_id'] } as const;
const MUTED_USER_ID = { muted_user_id: /^\d+$/ };

/**
 * Any user of the organization, bots and deactivated users included, as on Zulip; but not
 * one the muter may not see (can_access_all_users_group), who is as unknown as a wrong ID.
 */
function mutableUser(stoa: Stoa, muter: UserRow, id: number): UserRow {
  const target = stoa.users.byId(id);
  if (!target || !canAccessUser(stoa, muter, target)) throw badRequest('No such user');
  return target;
}

export const muteUserView = endpoint<{ muted_user_id: number }>({
  pathPatterns: MUTED_USER_ID,
  params: MUTED_USER_PARAMS,
  view: ({ stoa, user, params }) => {
    if (params.muted_user_id === user.id) throw badRequest('Cannot mute self');
    const target = mutableUser(stoa, user, params.muted_user_id);
    if (stoa.mutedUsers.isMuted(user.id, target.id)) throw badRequest('User already muted');
    muteUser(stoa, user.id, target.id);
    return {};
  },
});

export const unmuteUserView = endpoint<{ muted_user_id: number }>({
  pathPatterns: MUTED_USER_ID,
  params: MUTED_USER_PARAMS,
  view: ({ stoa, user, params }) => {
    const target = mutableUser(stoa, user, params.muted_user_id);
    if (!stoa.mutedUsers.isMuted(user.id, target.id)) throw badRequest('User is not muted');
    unmuteUser(stoa, user.id, target.id);
    return {};
  },
});
