import { EmailVisibility, Role, type UserRow } from './queries';

/**
 * Domain of the stand-in API emails of users who hide their real address, and of the
 * server's own bots. Never a deliverable domain.
 */
export const INTERNAL_EMAIL_DOMAIN = 'stoa.local';

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
