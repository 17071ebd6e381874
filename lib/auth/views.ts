import { publicEndpoint, NO_PARAMS } from '../http/endpoint';
import { authenticationFailed, userDeactivated } from '../http/errors';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { verifyPassword } from './credentials';

/** An account that may log in: a real member of the organization, not the server's own bot. */
function loginAccount(stoa: Stoa, username: string): UserRow | undefined {
  const user = stoa.users.byAnyEmail(username.trim());
  return user && !user.is_system_bot ? user : undefined;
}

function apiKeyResponse(user: UserRow) {
  return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };
}

export const fetchApiKey = publicEndpoint<{ username: string; password: string }>({
  params: {
    properties: { username: { type: 'string' }, password: { type: 'string' } },
    required: ['username', 'password'],
  },
  view: async ({ stoa, params }) => {
    const user = loginAccount(stoa, params.username);
    // Verified even for unknown accounts, so the answer takes as long either way.
    const valid = await verifyPassword(params.password, user?.password_hash ?? null);
    if (!user || !valid) throw authenticationFailed();
    if (!user.is_active) throw userDeactivated();
    return apiKeyResponse(user);
  },
});

/** Zulip's development-server login: an API key for any account, no password. Only with --dev. */
export const devFetchApiKey = publicEndpoint<{ username: string }>({
  params: { properties: { username: { type: 'string' } }, required: ['username'] },
  view: ({ stoa, params }) => {
    const user = loginAccount(stoa, params.username);
    if (!user) throw authenticationFailed();
    if (!user.is_active) throw userDeactivated();
    return apiKeyResponse(user);
  },
});

/** The accounts a development login page offers, administrators first. Only with --dev. */
export const devListUsers = publicEndpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => {
    const people = stoa.users.inRealm().filter((u) => u.is_active && !u.is_bot);
    const entry = (u: UserRow) => ({ email: u.delivery_email, realm_uri: stoa.site, realm_url: stoa.site });
    return {
      direct_admins: people.filter((u) => u.role <= 200).map(entry),
      direct_users: people.filter((u) => u.role > 200).map(entry),
    };
  },
});

