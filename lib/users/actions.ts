import { generateApiKey } from '../auth/credentials';
import { addToRoleGroups } from '../groups/actions';
import { badRequest } from '../http/errors';
import type { EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { presentUser } from './present';
import { EmailVisibility, type RoleValue, type UserRow } from './queries';

/**
 * Domain of the stand-in API emails of users who hide their real address, and of the
 * server's own bots. Never a deliverable domain.
 */
export const INTERNAL_EMAIL_DOMAIN = 'stoa.local';

/**
 * The API email a user has under an email visibility setting: the real address when everyone
 * may see it (and always for bots), else a stand-in that reveals nothing.
 */
export function apiEmailFor(user: UserRow, visibility: number): string {
  return visibility === EmailVisibility.EVERYONE || user.is_bot ? user.delivery_email : `user${user.id}@${INTERNAL_EMAIL_DOMAIN}`;
}

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
  const created = stoa.users.byId(id)!;
  if (created.email !== apiEmailFor(created, visibility)) stoa.users.setEmail(id, apiEmailFor(created, visibility));
  // The server's own bots belong to no organization group, like Zulip's cross-realm bots.
  if (!account.bot?.system) {
    addToRoleGroups(stoa, id, account.role);
    announceUser(stoa, id);
  }
  return id;
}

/** Tells every active user's clients about a new account, as each of them may see it. */
function announceUser(stoa: Stoa, userId: number): void {
  const event = (queue: EventQueue) => {
    const viewer = stoa.users.byId(queue.userId)!;
    const person = presentUser(viewer, stoa.users.byId(userId)!, {
      clientGravatar: queue.settings.clientGravatar,
      includeProfileData: true,
    });
    return { type: 'realm_user', op: 'add', person };
  };
  sendEvent(stoa, event, stoa.users.activeIds());
}

/** Adds an account to a running organization, refusing an email that is already taken. */
export function addUser(stoa: Stoa, account: NewAccount): number {
  return write(stoa, () => {
    if (stoa.users.byAnyEmail(account.email)) throw badRequest('Email is already in use.');
    return createUser(stoa, account);
  });
}
