import { generateApiKey } from '../auth/credentials';
import { addToRoleGroups } from '../groups/actions';
import { badRequest } from '../http/errors';
import { write, type Stoa } from '../stoa';
import { EmailVisibility, type RoleValue } from './queries';

/**
 * Domain of the stand-in API emails of users who hide their real address, and of the
 * server's own bots. Never a deliverable domain.
 */
export const INTERNAL_EMAIL_DOMAIN = 'stoa.local';

export interface NewAccount {
  email: string;
  fullName: string;
  passwordHash: string | null;
  role: RoleValue;
  canCreateUsers?: boolean;
  bot?: { type: number; ownerId: number | null; system?: boolean };
}

/** Creates an account and puts it in its role's system groups; call inside a transaction. */
export function createUser(stoa: Stoa, account: NewAccount): number {
  const visibility = EmailVisibility.EVERYONE;
  const id = stoa.users.insert({
    email: account.email,
    delivery_email: account.email,
    full_name: account.fullName,
    password_hash: account.passwordHash,
    api_key: generateApiKey(),
    role: account.role,
    is_bot: account.bot ? 1 : 0,
    bot_type: account.bot?.type ?? null,
    bot_owner_id: account.bot?.ownerId ?? null,
    is_system_bot: account.bot?.system ? 1 : 0,
    can_create_users: account.canCreateUsers ? 1 : 0,
    date_joined_ms: stoa.clock.now(),
    email_address_visibility: visibility,
  });
  // Bots always show their real address; a person who hides theirs gets a stand-in API email.
  if (!account.bot && visibility !== EmailVisibility.EVERYONE) {
    stoa.users.setEmail(id, `user${id}@${INTERNAL_EMAIL_DOMAIN}`);
  }
  // The server's own bots belong to no organization group, like Zulip's cross-realm bots.
  if (!account.bot?.system) addToRoleGroups(stoa, id, account.role);
  return id;
}

/** Adds an account to a running organization, refusing an email that is already taken. */
export function addUser(stoa: Stoa, account: NewAccount): number {
  return write(stoa, () => {
    if (stoa.users.byAnyEmail(account.email)) throw badRequest('Email is already in use.');
    return createUser(stoa, account);
  });
}
