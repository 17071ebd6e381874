import type { ProfileValues } from '../profile-fields/present';
import { canSeeDeliveryEmail } from './email-visibility';
import { Role, type UserRow } from './queries';

/** Zulip's ISO 8601 form, with an explicit +00:00 offset. */
export function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

/** The avatar URLs of a server (lib/users/avatars.ts). */
export interface AvatarUrls {
  urlFor(viewer: UserRow | null, target: UserRow, clientGravatar: boolean): string | null;
}

export interface UserView {
  avatars: AvatarUrls;
  clientGravatar: boolean;
  /**
   * Users' custom profile data, or null to leave `profile_data` out: Zulip sends it only to
   * clients that ask for custom profile fields.
   */
  profileData: ProfileValues | null;
}

/** A User object of the API, as `viewer` may see it; a spectator (null) never sees real emails. */
export function presentUser(viewer: UserRow | null, target: UserRow, view: UserView): Record<string, unknown> {
  const user: Record<string, unknown> = {
    user_id: target.id,
    delivery_email: viewer !== null && canSeeDeliveryEmail(viewer, target) ? target.delivery_email : null,
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
    avatar_url: view.avatars.urlFor(viewer, target, view.clientGravatar),
    avatar_version: target.avatar_version,
    is_imported_stub: target.is_imported_stub === 1,
  };
  // Bots have no custom profile fields.
  if (view.profileData && !target.is_bot) user.profile_data = view.profileData.get(target.id) ?? {};
  return user;
}
