import { generateToken, hashToken } from '../auth/credentials';
import { write } from '../events/send';
import { SESSION_IDLE_MS } from '../http/cookies';
import type { Stoa } from '../stoa';

/** Starts a browser session for the user; the token goes in the cookie and is stored only hashed. */
export function startSession(stoa: Stoa, userId: number): { token: string; csrfToken: string } {
  const token = generateToken();
  const csrfToken = generateToken();
  write(stoa, () => {
    const now = stoa.clock.now();
    // Sessions nobody used for too long are removed here, where new ones are made, so the
    // table holds only live ones without a timer.
    stoa.sessions.removeUnusedSince(now - SESSION_IDLE_MS);
    stoa.sessions.insert(hashToken(token), userId, csrfToken, now);
  });
  return { token, csrfToken };
}

/** Ends one session (logout). */
export function endSession(stoa: Stoa, sessionId: number): void {
  write(stoa, () => stoa.sessions.remove(sessionId));
}

/**
 * Ends the user's sessions: all of them (deactivation), or all but the one that asked (a
 * password change, after which other browsers must sign in with the new password).
 */
export function revokeSessions(stoa: Stoa, userId: number, keepSessionId?: number): void {
  write(stoa, () => {
    if (keepSessionId === undefined) stoa.sessions.removeAllOf(userId);
    else stoa.sessions.removeOthersOf(userId, keepSessionId);
  });
}
