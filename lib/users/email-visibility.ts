import { EmailVisibility, Role, type UserRow } from './queries';

/**
 * Domain of the stand-in API emails of users who hide their real address, and of the
 * server's own bots. Never a deliverable domain.
 */
export const INTERNAL_EMAIL_DOMAIN = 'stoa.local';

/** A host name that can follow the @ of an address: dotted names ending in letters, or localhost. */
const EMAIL_DOMAIN = /^(?:(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}|localhost)$/i;

/**
 * The domain of the addresses new bots get (and register's realm_bot_domain): the
 * organization's host without its port, as Zulip builds them, or INTERNAL_EMAIL_DOMAIN when
 * the server is reached by an IP address, which no address may end in. Bots keep the address
 * they were made with when the host changes later, as on Zulip.
 */
export function botEmailDomain(site: string): string {
  const host = site === '' ? '' : new URL(site).hostname;
  return EMAIL_DOMAIN.test(host) ? host.toLowerCase() : INTERNAL_EMAIL_DOMAIN;
}

/** The address that names a user without revealing their real one. */
export function standInEmail(userId: number): string {
  return `user${userId}@${INTERNAL_EMAIL_DOMAIN}`;
}

/** Whether `viewer` may see `target`'s real email address, by the target's visibility setting. */
export function canSeeDeliveryEmail(viewer: UserRow, target: UserRow): boolean {
  if (viewer.id === target.id || deliveryEmailVisibleToAll(target)) return true;
  switch (target.email_address_visibility) {
    case EmailVisibility.MEMBERS:
      return viewer.role !== Role.GUEST;
    case EmailVisibility.MODERATORS:
      return viewer.role <= Role.MODERATOR;
    case EmailVisibility.ADMINS:
      return viewer.role <= Role.ADMINISTRATOR;
    default:
      return false;
  }
}

/** Whether everyone may see the target's real email address, whoever they are. */
export function deliveryEmailVisibleToAll(target: UserRow): boolean {
  return target.is_bot === 1 || target.email_address_visibility === EmailVisibility.EVERYONE;
}
