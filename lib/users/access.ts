import { realmSetting, userHasRealmPermission } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { standInEmail } from './email-visibility';
import { administratorRequired, badRequest, insufficientPermission, ownerRequired } from '../http/errors';
import { Role, type UserRow } from './queries';

/**
 * Reading someone the viewer may not see (a guest, under can_access_all_users_group) is refused
 * for that, as Zulip's access_user_by_id does, rather than hidden as if they did not exist.
 */
export function checkCanReadUser(stoa: Stoa, viewer: UserRow, target: UserRow): UserRow {
  if (!canAccessUser(stoa, viewer, target)) throw insufficientPermission();
  return target;
}

/** Zulip's refusal of guests where bots may act but guests not (its require_non_guest_user). */
export function refuseGuests(user: UserRow): void {
  if (user.role === Role.GUEST) throw badRequest('Not allowed for guest users');
}

/** Zulip's refusal of bots where only people may act (its human_users_only). */
export function refuseBots(user: UserRow): void {
  if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
}

/** Zulip's require_member_or_admin: guests are refused, then bots. */
export function requireMemberOrAdmin(user: UserRow): void {
  refuseGuests(user);
  refuseBots(user);
}

/** Zulip's refusal of everyone but administrators and owners (its require_realm_admin). */
export function requireAdministrator(user: UserRow): void {
  if (user.role > Role.ADMINISTRATOR) throw administratorRequired();
}

/** Zulip's refusal of everyone but owners (its require_realm_owner). */
export function requireOwner(user: UserRow): void {
  if (user.role !== Role.OWNER) throw ownerRequired();
}

/**
 * Who may see whom: the organization's can_access_all_users_group, as Zulip has it since 8.0.
 * Its value is role:everyone (nobody is limited) or role:members, which leaves guests out: a
 * guest then sees only themselves, bots, the active people subscribed to a channel they are
 * subscribed to, and everyone in a direct-message conversation with them. Everyone else is
 * inaccessible to the guest, shown (where Zulip shows anything) as an "Unknown user".
 */

/** The name Zulip gives a user the viewer may not see. */
export const INACCESSIBLE_USER_NAME = 'Unknown user';

/** The picture of a user the viewer may not see, at the path Zulip serves it from. */
export const INACCESSIBLE_USER_AVATAR_PATH = '/static/images/unknown-user-avatar.png';

/** Whether the organization limits anyone's access to users: its setting is not role:everyone. */
export function userAccessRestricted(stoa: Stoa): boolean {
  return realmSetting(stoa, 'realm_can_access_all_users_group') !== stoa.groups.byName('role:everyone')!.id;
}

/** Whether the viewer may see every user of the organization. Only guests are ever limited. */
export function canAccessAllUsers(stoa: Stoa, viewer: UserRow): boolean {
  if (viewer.role !== Role.GUEST || !userAccessRestricted(stoa)) return true;
  return userHasRealmPermission(stoa, viewer, 'realm_can_access_all_users_group');
}

/** Whether the viewer may see the target user. */
export function canAccessUser(stoa: Stoa, viewer: UserRow, target: UserRow): boolean {
  if (viewer.id === target.id || target.is_bot || canAccessAllUsers(stoa, viewer)) return true;
  return (
    (target.is_active === 1 && stoa.users.sharesChannel(viewer.id, target.id)) ||
    stoa.users.sharesDirectConversation(viewer.id, target.id)
  );
}

/**
 * The people the viewer may see, or null when they may see everyone. Bots are left out of
 * the set: everyone may see every bot, so callers check `is_bot` themselves.
 */
export function accessibleUserIds(stoa: Stoa, viewer: UserRow): ReadonlySet<number> | null {
  if (canAccessAllUsers(stoa, viewer)) return null;
  const ids = stoa.users.directPartnerIds(viewer.id);
  for (const id of stoa.users.channelPeerIds(viewer.id)) ids.add(id);
  ids.add(viewer.id);
  return ids;
}

/** A predicate for one viewer over many targets, reading the viewer's access once. */
export function accessCheckFor(stoa: Stoa, viewer: UserRow): (target: UserRow) => boolean {
  const accessible = accessibleUserIds(stoa, viewer);
  return accessible === null ? () => true : (target) => target.is_bot === 1 || accessible.has(target.id);
}

/** The active users who may see the target: who hears of changes to them. */
export function usersWhoCanAccess(stoa: Stoa, target: UserRow): number[] {
  const active = stoa.users.activeIds();
  if (target.is_bot || !userAccessRestricted(stoa)) return active;
  return active.filter((id) => canAccessUser(stoa, stoa.users.byId(id)!, target));
}

/**
 * Zulip's stand-in User object for someone the viewer may not see: nothing true but the ID.
 * Clients that did not declare `user_list_incomplete` get these instead of a gap.
 */
export function inaccessibleUserPlaceholder(userId: number): Record<string, unknown> {
  return {
    email: standInEmail(userId),
    user_id: userId,
    avatar_version: 1,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    role: Role.MEMBER,
    is_bot: false,
    full_name: INACCESSIBLE_USER_NAME,
    timezone: '',
    is_active: true,
    date_joined: '1970-01-01T00:00:00+00:00',
    delivery_email: null,
    avatar_url: INACCESSIBLE_USER_AVATAR_PATH,
    profile_data: {},
  };
}
