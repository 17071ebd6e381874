import { unixSeconds } from '../clock';
import { createSystemGroups } from '../groups/actions';
import { write } from '../events/send';
import type { Stoa } from '../stoa';
import { createUser } from '../users/actions';
import { INTERNAL_EMAIL_DOMAIN } from '../users/email-visibility';
import { Role } from '../users/queries';

export const NOTIFICATION_BOT_EMAIL = `notification-bot@${INTERNAL_EMAIL_DOMAIN}`;
/** Zulip's generic bot type, which its system bots use. */
const GENERIC_BOT = 1;

/**
 * What every organization starts with: the organization row, its system groups and the
 * notification bot. Call inside `write`, then create the people.
 */
export function foundOrganization(stoa: Stoa, name: string, stringId = ''): void {
  stoa.realm.insert(name, stringId, unixSeconds(stoa.clock));
  createSystemGroups(stoa);
  createSystemBot(stoa, NOTIFICATION_BOT_EMAIL, 'Notification Bot');
}

/** One of the server's own bots: outside the organization's groups, hidden from its user lists. */
export function createSystemBot(stoa: Stoa, email: string, fullName: string): number {
  return createUser(stoa, {
    email,
    fullName,
    passwordHash: null,
    role: Role.MEMBER,
    bot: { type: GENERIC_BOT, ownerId: null, system: true },
  });
}

/**
 * The first start of an empty database: the organization, its system groups, the
 * notification bot and the owner, in one transaction. Returns the owner's user ID.
 */
export function createOrganization(
  stoa: Stoa,
  settings: { name: string; ownerEmail: string; ownerPasswordHash: string },
): number {
  return write(stoa, () => {
    foundOrganization(stoa, settings.name);
    return createUser(stoa, {
      email: settings.ownerEmail,
      fullName: 'Owner',
      passwordHash: settings.ownerPasswordHash,
      role: Role.OWNER,
      canCreateUsers: true,
      canChangeUserEmails: true,
    });
  });
}
