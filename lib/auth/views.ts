import { publicEndpoint, NO_PARAMS } from '../http/endpoint';
import { authenticationFailed, badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { recordLogin } from '../users/actions';
import { checkCanLogIn, checkPassword, loginAccount } from './login';

/** An API key handed out is a login (see recordLogin). */
function apiKeyResponse(stoa: Stoa, user: UserRow) {
  recordLogin(stoa, user);
  return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };
}

export const fetchApiKey = publicEndpoint<{ username: string; password: string }>({
  params: {
    properties: { username: { type: 'string' }, password: { type: 'string' } },
    required: ['username', 'password'],
  },
  view: async ({ stoa, params, req }) => apiKeyResponse(stoa, await checkPassword(stoa, req, params.username, params.password)),
});

/**
 * POST /jwt/fetch_api_key: Zulip's login by JSON web token, for organizations given a JWT key
 * in the server's settings. Stoa has no such setting, so it answers as such a Zulip does.
 */
export const jwtFetchApiKey = publicEndpoint<{ token?: string; include_profile?: boolean }>({
  params: { properties: { token: { type: 'string' }, include_profile: { type: 'boolean' } } },
  view: () => {
    throw badRequest('JWT authentication is not enabled for this organization');
  },
});

/** The development login's endpoints answer this while it is off (without --dev), as Zulip's do. */
function checkDevLogin(stoa: Stoa): void {
  if (!stoa.config.dev) throw badRequest('DevAuthBackend not enabled.');
}

/** Zulip's development-server login: an API key for any account, no password. Only with --dev. */
export const devFetchApiKey = publicEndpoint<{ username: string }>({
  params: { properties: { username: { type: 'string' } }, required: ['username'] },
  view: ({ stoa, params }) => {
    checkDevLogin(stoa);
    const user = loginAccount(stoa, params.username);
    if (!user) throw authenticationFailed();
    checkCanLogIn(stoa, user);
    return apiKeyResponse(stoa, user);
  },
});

/** The accounts a development login page offers, administrators first. Only with --dev. */
export const devListUsers = publicEndpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => {
    checkDevLogin(stoa);
    const people = stoa.users.inRealm().filter((u) => u.is_active && !u.is_bot);
    const entry = (u: UserRow) => ({ email: u.delivery_email, realm_uri: stoa.site, realm_url: stoa.site });
    return {
      direct_admins: people.filter((u) => u.role <= 200).map(entry),
      direct_users: people.filter((u) => u.role > 200).map(entry),
    };
  },
});

