import { endpoint, NO_PARAMS } from '../http/endpoint';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { userSettings } from '../users/settings-store';
import type { UserRow } from '../users/queries';
import { refuseBots } from '../users/access';
import { reportPresence } from './actions';
import { modernPresence, presenceData } from './present';


interface UpdatePresenceParams {
  status: string;
  ping_only: boolean;
  new_user_input: boolean;
  last_update_id?: number;
  history_limit_days?: number;
  slim_presence: boolean;
}

export const updatePresence = endpoint<UpdatePresenceParams>({
  params: {
    properties: {
      status: { type: 'string' },
      ping_only: { type: 'boolean', default: false },
      // Zulip feeds its usage statistics with this; Stoa keeps none, so it only accepts it.
      new_user_input: { type: 'boolean', default: false },
      last_update_id: { type: 'integer' },
      history_limit_days: { type: 'integer' },
      slim_presence: { type: 'boolean', default: false },
    },
    required: ['status'],
  },
  // Zulip refuses presence updates from bots.
  authorize: refuseBots,
  view: ({ stoa, user, params }) => {
    if (params.status !== 'active' && params.status !== 'idle') throw badRequest(`Invalid status: ${params.status}`);
    // Invisible mode: while presence is off nothing is recorded, so others keep seeing the
    // long-past presence stored when it was turned off.
    if (userSettings(stoa, user).presence_enabled) reportPresence(stoa, user, params.status === 'active');
    const lastUpdateId = params.last_update_id ?? null;
    if (params.ping_only) return { presence_last_update_id: lastUpdateId ?? -1, legacy_mirror_active: false };
    const data = presenceData(stoa, {
      modern: lastUpdateId !== null || params.slim_presence,
      lastUpdateId,
      historyLimitDays: params.history_limit_days ?? null,
    });
    return { ...data, legacy_mirror_active: false };
  },
});

export const getRealmPresence = endpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => {
    const { presences, server_timestamp } = presenceData(stoa, { modern: false, lastUpdateId: null, historyLimitDays: null });
    return { server_timestamp, presences };
  },
});

function noSuchUser() {
  return badRequest('No such user');
}

/** An active user by ID or by API email. */
function activeUserByIdOrEmail(stoa: Stoa, idOrEmail: string): UserRow {
  const byId = /^-?\d+$/.test(idOrEmail);
  const user = byId ? stoa.users.byId(Number(idOrEmail)) : stoa.users.byAnyEmail(idOrEmail);
  if (!user || user.is_system_bot || !user.is_active) throw noSuchUser();
  if (!byId && user.email.toLowerCase() !== idOrEmail.toLowerCase()) throw noSuchUser();
  return user;
}

/**
 * GET /users/{user_id_or_email}/presence: one user's presence in the modern format (level 487),
 * the two timestamps every other presence answer gives.
 */
export const getUserPresence = endpoint<{ user_id_or_email: string }>({
  params: { properties: { user_id_or_email: { type: 'string' } }, required: ['user_id_or_email'] },
  view: ({ stoa, params }) => {
    const target = activeUserByIdOrEmail(stoa, params.user_id_or_email);
    if (target.bot_type !== null) throw badRequest('Presence is not supported for bot users.');
    const row = stoa.presence.viewOf(target.id);
    if (!row) throw badRequest(`No presence data for ${params.user_id_or_email}`);
    return { presence: modernPresence(row) };
  },
});
