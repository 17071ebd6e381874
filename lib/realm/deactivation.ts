import type { NextFunction, Request, Response } from 'express';
import { sendEvent, write } from '../events/send';
import { endpoint } from '../http/endpoint';
import { badRequest, realmDeactivated } from '../http/errors';
import type { Stoa } from '../stoa';
import { REALM_SERVER_FACTS } from './settings';
import { requireOwner } from '../users/access';

/**
 * POST /realm/deactivate: an owner closes the organization. Stoa serves one organization, so
 * afterwards the whole server answers as Zulip does for a deactivated organization: every API
 * key, session and sign-in is refused with REALM_DEACTIVATED (401), event queues can no longer
 * be read, and only /server_settings still answers. The state is in the database, so a restart
 * keeps it; `stoa reactivate` opens the organization again. Nothing is deleted: Stoa keeps the
 * data whatever `deletion_delay_days` says (it is checked as Zulip checks it).
 */
export const deactivateRealmView = endpoint<{ deletion_delay_days?: number | null }>({
  params: { properties: { deletion_delay_days: { type: 'integer', nullable: true } } },
  authorize: requireOwner,
  view: ({ stoa, params }) => {
    const days = params.deletion_delay_days ?? null;
    const max = REALM_SERVER_FACTS.server_max_deactivated_realm_deletion_days as number | null;
    const min = REALM_SERVER_FACTS.server_min_deactivated_realm_deletion_days as number | null;
    if (max !== null && (days === null || days > max)) {
      throw badRequest(`Data deletion time must be at most ${max} days in the future.`);
    }
    if (min !== null && days !== null && days < min) {
      throw badRequest(`Data deletion time must be at least ${min} days in the future.`);
    }
    deactivateRealm(stoa);
    return {};
  },
});

export function deactivateRealm(stoa: Stoa): void {
  write(stoa, () => {
    const realm = stoa.realm.get()!;
    if (realm.deactivated) return;
    stoa.realm.setDeactivated(true);
    stoa.sessions.removeEveryone();
    // Clients polling at this moment learn of it; the others from their next request's error.
    sendEvent(stoa, { type: 'realm', op: 'deactivated', realm_id: realm.id }, stoa.users.activeIds());
  });
}

/** The one request a deactivated organization still answers, as Zulip does. */
const STILL_SERVED = /^\/server_settings\/?$/;

/**
 * In front of everything that needs the organization (the API, the browser's endpoints,
 * uploads and avatars): while it is deactivated, Zulip's REALM_DEACTIVATED.
 */
export function refuseWhileDeactivated(stoa: Stoa) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!stoa.realm.get()?.deactivated) return next();
    if (req.method === 'GET' && STILL_SERVED.test(req.path)) return next();
    next(realmDeactivated());
  };
}
