import { unixSeconds } from '../clock';
import { createSystemGroups } from '../groups/actions';
import { write } from '../events/send';
import type { Stoa } from '../stoa';
import { createUser, INTERNAL_EMAIL_DOMAIN } from '../users/actions';
import { Role } from '../users/queries';

export const NOTIFICATION_BOT_EMAIL = `notification-bot@${INTERNAL_EMAIL_DOMAIN}`;
/** Zulip's generic bot type, which its system bots use. */
const GENERIC_BOT = 1;

/**
 * The first start of an empty database: the organization, its system groups, the
 * notification bot and the owner, in one transaction. Returns the owner's user ID.
 */
export function createOrganization(
  stoa: Stoa,
  settings: { name: string; ownerEmail: string; ownerPasswordHash: string },
): number {
  return write(stoa, () => {
    stoa.realm.insert(settings.name, unixSeconds(stoa.clock));
    createSystemGroups(stoa);
    createUser(stoa, {
      email: NOTIFICATION_BOT_EMAIL,
      fullName: 'Notification Bot',
      passwordHash: null,
      role: Role.MEMBER,
      bot: { type: GENERIC_BOT, ownerId: null, system: true },
    });
    return createUser(stoa, {
      email: settings.ownerEmail,
      fullName: 'Owner',
      passwordHash: settings.ownerPasswordHash,
      role: Role.OWNER,
      canCreateUsers: true,
    });
  });
}
