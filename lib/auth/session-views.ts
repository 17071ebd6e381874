import type { IncomingMessage, ServerResponse } from 'node:http';
import { sessionOf } from '../http/auth';
import { isSecureRequest, readCookie, SESSION_COOKIE, setSessionCookies } from '../http/cookies';
import { endpoint, NO_PARAMS, publicEndpoint } from '../http/endpoint';
import { authenticationFailed, missingArgument } from '../http/errors';
import { endSession, startSession } from '../sessions/actions';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { recordLogin } from '../users/actions';
import { checkCanLogIn, checkPassword } from './login';

/**
 * The browser's sign-in endpoints under /accounts (see README, "Signing in from a browser").
 * A session is a cookie; everything else the page does goes through /json with it.
 */

/** What the page learns about its session: who it is and the token to echo in X-CSRFToken. */
function sessionAnswer(user: UserRow, csrfToken: string) {
  return { user_id: user.id, email: user.delivery_email, csrf_token: csrfToken };
}

/** Starts a session for the user and hands the browser its cookies. */
export function signIn(stoa: Stoa, user: UserRow, req: IncomingMessage, res: ServerResponse) {
  recordLogin(stoa, user);
  const { token, csrfToken } = startSession(stoa, user.id);
  setSessionCookies(res, { token, csrfToken }, isSecureRequest(req, stoa.site));
  return sessionAnswer(user, csrfToken);
}

export const login = publicEndpoint<{ username: string; password: string }>({
  params: {
    properties: { username: { type: 'string' }, password: { type: 'string' } },
    required: ['username', 'password'],
  },
  view: async ({ stoa, params, req, res }) => signIn(stoa, await checkPassword(stoa, req, params.username, params.password), req, res),
});

/** Zulip's development-server login, as a session: any account, no password. Only with --dev. */
export const devLogin = publicEndpoint<{ user_id?: number; direct_email?: string }>({
  // By ID, as the web client's list (dev_people) gives it, or by email as Zulip's development
  // login form sends it (`direct_email`).
  params: { properties: { user_id: { type: 'integer' }, direct_email: { type: 'string' } } },
  view: ({ stoa, params, req, res }) => {
    if (params.user_id === undefined && params.direct_email === undefined) throw missingArgument('user_id');
    const user = params.user_id !== undefined ? stoa.users.byId(params.user_id) : stoa.users.byAnyEmail(params.direct_email!);
    if (!user || user.is_bot) throw authenticationFailed();
    checkCanLogIn(stoa, user);
    return signIn(stoa, user, req, res);
  },
});

/**
 * The people the development login page offers, with what a person needs to pick one: name,
 * role and email, owners and administrators first. Only with --dev. (dev_list_users, Zulip's
 * API, names people by email only.)
 */
export const devPeople = publicEndpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => {
    const people = stoa.users
      .inRealm()
      .filter((u) => u.is_active && !u.is_bot)
      .sort((a, b) => a.role - b.role || a.full_name.localeCompare(b.full_name));
    return { people: people.map((u) => ({ user_id: u.id, full_name: u.full_name, email: u.delivery_email, role: u.role })) };
  },
});

export const logout = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, req, res }) => {
    endSession(stoa, sessionOf(req)!.id);
    setSessionCookies(res, null, isSecureRequest(req, stoa.site));
    return {};
  },
});

/**
 * The session the cookie names; its cookies are sent again, so an active browser stays signed
 * in. It says too whether the account has a password: one without (the demo's people, signed in
 * through the development login) sets its first one without an old one.
 */
export const currentSession = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user, req, res }) => {
    const session = sessionOf(req)!;
    const secure = isSecureRequest(req, stoa.site);
    setSessionCookies(res, { token: readCookie(req, SESSION_COOKIE)!, csrfToken: session.csrf_token }, secure);
    return { ...sessionAnswer(user, session.csrf_token), has_password: user.password_hash !== null };
  },
});
