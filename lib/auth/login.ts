import type { IncomingMessage } from 'node:http';
import { authenticationFailed, rateLimited, realmDeactivated, userDeactivated } from '../http/errors';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { verifyPassword } from './credentials';
import { clientAddress } from '../http/client-address';

/** An account that may log in: a real member of the organization, not the server's own bot. */
export function loginAccount(stoa: Stoa, username: string): UserRow | undefined {
  const user = stoa.users.byAnyEmail(username.trim());
  return user && !user.is_system_bot ? user : undefined;
}

/** Whether the account (found by loginAccount) may be given a session or its API key now. */
export function checkCanLogIn(stoa: Stoa, user: UserRow): void {
  if (!user.is_active) throw userDeactivated();
  if (stoa.realm.get()?.deactivated) throw realmDeactivated();
}

/**
 * An email and password checked: the account, or Zulip's error. Wrong passwords are counted
 * per email and per client address; past the limit the answer is 429 until the window
 * passes, before the password is even looked at.
 */
export async function checkPassword(stoa: Stoa, req: IncomingMessage, username: string, password: string): Promise<UserRow> {
  const emailKey = username.trim().toLowerCase();
  const addressKey = clientAddress(stoa.config, req);
  const { byEmail, byAddress } = stoa.loginFailures;
  const wait = Math.max(byEmail.waitSeconds(emailKey), byAddress.waitSeconds(addressKey));
  if (wait > 0) throw rateLimited(wait);
  const user = loginAccount(stoa, username);
  // Verified even for unknown accounts, so the answer takes as long either way.
  const valid = await verifyPassword(password, user?.password_hash ?? null);
  if (!user || !valid) {
    byEmail.recordFailure(emailKey);
    byAddress.recordFailure(addressKey);
    throw authenticationFailed();
  }
  checkCanLogIn(stoa, user);
  return user;
}
