import { createHash } from 'node:crypto';
import type { ProfileValues } from '../profile-fields/present';
import { EmailVisibility, Role, type UserRow } from './queries';

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

/**
 * Gravatar URLs by user row. Rows are kept unchanged until the user changes (lib/users/queries.ts),
 * so a row's URL is hashed once however many messages of theirs are shown.
 */
const gravatarUrls = new WeakMap<UserRow, string>();

/** The provider-hosted avatar: an identicon keyed by the hash of the real address. */
export function gravatarUrl(user: UserRow): string {
  let url = gravatarUrls.get(user);
  if (url === undefined) {
    const hash = createHash('md5').update(user.delivery_email.toLowerCase()).digest('hex');
    url = `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${user.avatar_version}`;
    gravatarUrls.set(user, url);
  }
  return url;
}

/** A larger rendition of the avatar, for profile cards. */
export function mediumAvatarUrl(user: UserRow): string {
  return `${gravatarUrl(user)}&s=500`;
}

/**
 * null tells a client that asked for client_gravatar to compute the URL itself, which it
 * can only do when it may see the real email and the avatar is provider-hosted.
 */
export function avatarUrl(viewer: UserRow, target: UserRow, clientGravatar: boolean): string | null {
  return clientComputesAvatar(() => viewer, target, clientGravatar) ? null : gravatarUrl(target);
}

/**
 * Whether avatarUrl is null: cheaper to ask than the URL, which hashes the address. The viewer
 * is asked for only when the answer depends on who they are.
 */
export function clientComputesAvatar(viewer: () => UserRow, target: UserRow, clientGravatar: boolean): boolean {
  return clientGravatar && target.avatar_source === 'G' && (deliveryEmailVisibleToAll(target) || canSeeDeliveryEmail(viewer(), target));
}

/** Zulip's ISO 8601 form, with an explicit +00:00 offset. */
function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

export interface UserView {
  clientGravatar: boolean;
  /**
   * Users' custom profile data, or null to leave `profile_data` out: Zulip sends it only to
   * clients that ask for custom profile fields.
   */
  profileData: ProfileValues | null;
}

/** A User object of the API, as `viewer` may see it. */
export function presentUser(viewer: UserRow, target: UserRow, view: UserView): Record<string, unknown> {
  const user: Record<string, unknown> = {
    user_id: target.id,
    delivery_email: canSeeDeliveryEmail(viewer, target) ? target.delivery_email : null,
    email: target.email,
    full_name: target.full_name,
    date_joined: isoTimestamp(target.date_joined_ms),
    is_active: target.is_active === 1,
    is_owner: target.role === Role.OWNER,
    is_admin: target.role <= Role.ADMINISTRATOR,
    is_guest: target.role === Role.GUEST,
    is_bot: target.is_bot === 1,
    bot_type: target.bot_type,
    bot_owner_id: target.bot_owner_id,
    role: target.role,
    timezone: target.timezone,
    avatar_url: avatarUrl(viewer, target, view.clientGravatar),
    avatar_version: target.avatar_version,
  };
  // Bots have no custom profile fields.
  if (view.profileData && !target.is_bot) user.profile_data = view.profileData.get(target.id) ?? {};
  return user;
}
