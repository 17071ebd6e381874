import { generateApiKey } from '../auth/credentials';
import {
  addToRoleGroups,
  announceMembership,
  announceReturningGroupSettingHolder,
  changeGroupMembership,
  removeFromRoleGroups,
  waitedLongEnough,
} from '../groups/actions';
import { armNextPromotion } from '../groups/full-members';
import { badRequest } from '../http/errors';
import {
  announceChannelAccessChange,
  announceReturningSettingHolder,
  announceSubscriberActivity,
  subscribeUsers,
  visibleChannelIds,
} from '../channels/actions';
import { announceAdministeredBots } from '../bots/announce';
import type { ChannelRow } from '../channels/queries';
import { removeDevice } from '../devices/actions';
import { perShape } from '../events/queues';
import { sendEvent, write } from '../events/send';
import { revokeInvitesBy, revokeInvitesTo } from '../invites/actions';
import { revokeSessions } from '../sessions/actions';
import type { Stoa } from '../stoa';
import { canSeeDeliveryEmail, standInEmail } from './email-visibility';
import { canAccessUser, inaccessibleUserPlaceholder, usersWhoCanAccess } from './access';
import { announceUserAccessChanges, snapshotUserAccess } from './access-events';
import { isoTimestamp, presentUser } from './present';
import { giveRecentHistory } from './recent-history';
import { EmailVisibility, Role, type AvatarSource, type RoleValue, type UserRow } from './queries';
import { drawGeneratedAvatar } from './generated-avatars';
import { realmSetting } from '../realm/settings-store';
import { announceReturningRealmSettingHolder } from '../realm/settings-actions';

/**
 * The API email a user has under an email visibility setting: the real address when everyone
 * may see it (and always for bots), else a stand-in that reveals nothing.
 */
export function apiEmailFor(user: UserRow, visibility: number): string {
  return visibility === EmailVisibility.EVERYONE || user.is_bot ? user.delivery_email : standInEmail(user.id);
}

export interface NewAccount {
  email: string;
  fullName: string;
  passwordHash: string | null;
  role: RoleValue;
  canCreateUsers?: boolean;
  canChangeUserEmails?: boolean;
  bot?: { type: number; ownerId: number | null; system?: boolean };
  /** Made for someone else (POST /users): the date it was joined becomes that of its first login. */
  joinsAtFirstLogin?: boolean;
}

/**
 * Creates an account and puts it in its role's system groups; call inside a transaction. The
 * account starts with the organization's defaults for new users' settings (the server's own
 * bots with Stoa's).
 */
export function createUser(stoa: Stoa, account: NewAccount): number {
  // Stored organization defaults differ from Stoa's, as a user's stored settings do: copied as they are.
  const defaults = account.bot?.system ? [] : stoa.users.realmDefaultOverrides();
  // New accounts start with the organization's default avatar (level 456); the server's own bots with the provider's.
  const avatarSource = account.bot?.system ? 'G' : (realmSetting(stoa, 'realm_default_avatar_source') as AvatarSource);
  const chosenVisibility = defaults.find((d) => d.name === 'email_address_visibility');
  const visibility = chosenVisibility ? (JSON.parse(chosenVisibility.value) as number) : EmailVisibility.EVERYONE;
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
    can_change_user_emails: account.canChangeUserEmails ? 1 : 0,
    date_joined_ms: stoa.clock.now(),
    email_address_visibility: visibility,
    joins_at_first_login: account.joinsAtFirstLogin ? 1 : 0,
    avatar_source: avatarSource,
  });
  if (avatarSource === 'J') drawGeneratedAvatar(stoa, id);
  for (const { name, value } of defaults) if (name !== 'email_address_visibility') stoa.users.putSetting(id, name, value);
  const created = stoa.users.byId(id)!;
  if (created.email !== apiEmailFor(created, visibility)) stoa.users.setEmail(id, apiEmailFor(created, visibility));
  // The server's own bots belong to no organization group, like Zulip's cross-realm bots.
  if (!account.bot?.system) {
    addToRoleGroups(stoa, id, account.role);
    if (account.role === Role.MEMBER && !waitedLongEnough(stoa, stoa.users.byId(id)!)) armNextPromotion(stoa);
    announceUser(stoa, id);
  }
  return id;
}

/**
 * Tells every active user's clients about a new account, as each of them may see it. A guest
 * who may not see the newcomer (can_access_all_users_group) hears nothing if their client
 * declared `user_list_incomplete`, else gets Zulip's "Unknown user" in the newcomer's place;
 * joining channels they share may then give them the real person (see access-events.ts).
 */
function announceUser(stoa: Stoa, userId: number): void {
  const newcomer = stoa.users.byId(userId)!;
  // Whether a guest may see the newcomer is decided now: what joining channels changes comes
  // with those changes, after this event.
  const hiddenFrom = new Set(stoa.users.activeIds().filter((id) => !canAccessUser(stoa, stoa.users.byId(id)!, newcomer)));
  // What a viewer sees of the newcomer depends on the viewer and on client_gravatar.
  const event = perShape(
    (queue) => `${queue.userId}:${queue.settings.clientGravatar}:${queue.settings.capabilities.user_list_incomplete}`,
    (queue) => {
      if (hiddenFrom.has(queue.userId)) {
        return queue.settings.capabilities.user_list_incomplete
          ? null
          : { type: 'realm_user', op: 'add', person: inaccessibleUserPlaceholder(userId) };
      }
      const viewer = stoa.users.byId(queue.userId)!;
      const person = presentUser(viewer, stoa.users.byId(userId)!, {
        avatars: stoa.avatars,
        clientGravatar: queue.settings.clientGravatar,
        // A newcomer has filled in no profile fields yet.
        profileData: new Map(),
      });
      return { type: 'realm_user', op: 'add', person };
    },
  );
  sendEvent(stoa, event, stoa.users.activeIds());
}

/** The channels and groups a new account joins. */
export interface Joins {
  channelIds: readonly number[];
  groupIds: readonly number[];
}

/**
 * Adds an account to a running organization, refusing an email that is already taken. It
 * joins the organization's default channels, or what an invitation says, and is given their recent
 * messages (see giveRecentHistory).
 */
export function addUser(stoa: Stoa, account: NewAccount, joins?: Joins): number {
  return write(stoa, () => {
    if (stoa.users.byAnyEmail(account.email)) throw badRequest('Email is already in use.');
    const id = createUser(stoa, account);
    revokeInvitesTo(stoa, account.email);
    // A channel archived (or a group deactivated) since the invitation was made is skipped.
    const channels = (joins?.channelIds ?? stoa.channels.defaultIds())
      .map((channelId) => stoa.channels.byId(channelId))
      .filter((channel): channel is ChannelRow => channel !== undefined && !channel.is_archived);
    subscribeUsers(stoa, channels, [stoa.users.byId(id)!]);
    giveRecentHistory(stoa, id, channels);
    for (const groupId of joins?.groupIds ?? []) {
      if (stoa.groups.byId(groupId)?.deactivated) continue;
      changeGroupMembership(stoa, groupId, { add: [id], remove: [], addSubgroups: [], removeSubgroups: [] });
    }
    return id;
  });
}

/** Tells everyone who may see the user (can_access_all_users_group) of a change to them. */
function announcePersonUpdate(stoa: Stoa, person: Record<string, unknown> & { user_id: number }): void {
  sendEvent(stoa, { type: 'realm_user', op: 'update', person }, usersWhoCanAccess(stoa, stoa.users.byId(person.user_id)!));
}

function announceAvatar(stoa: Stoa, user: UserRow): void {
  announcePersonUpdate(stoa, {
    user_id: user.id,
    avatar_url: stoa.avatars.url(user),
    avatar_source: user.avatar_source,
    avatar_url_medium: stoa.avatars.mediumUrl(user),
    avatar_version: user.avatar_version,
  });
}

/**
 * Notes a login. The first one of an imported stub makes it an ordinary account (level 433),
 * and of an account made through the API or by an import, dates its joining (level 475);
 * everyone who may see the user hears of each.
 */
export function recordLogin(stoa: Stoa, user: UserRow): void {
  if (!user.is_imported_stub && !user.joins_at_first_login) return;
  write(stoa, () => {
    stoa.users.markFirstLogin(user.id, stoa.clock.now());
    const after = stoa.users.byId(user.id)!;
    if (user.is_imported_stub) announcePersonUpdate(stoa, { user_id: user.id, is_imported_stub: false });
    if (user.joins_at_first_login) announcePersonUpdate(stoa, { user_id: user.id, date_joined: isoTimestamp(after.date_joined_ms) });
  });
}

/** Gives a user a new role, moving them between the role system groups. */
export function changeRole(stoa: Stoa, userId: number, role: RoleValue): void {
  write(stoa, () => {
    const user = stoa.users.byId(userId)!;
    if (user.role === role) return;
    const visibleBefore = visibleChannelIds(stoa, user);
    // Becoming a guest may hide people from the user, and ceasing to be one shows them all.
    const accessBefore = snapshotUserAccess(stoa, () => [userId]);
    removeFromRoleGroups(stoa, userId, user.role);
    stoa.users.setRole(userId, role);
    addToRoleGroups(stoa, userId, role);
    if (role === Role.MEMBER && !waitedLongEnough(stoa, user)) armNextPromotion(stoa);
    announcePersonUpdate(stoa, { user_id: userId, role });
    const after = stoa.users.byId(userId)!;
    announceVisibleEmails(stoa, user, after);
    announceAdministeredBots(stoa, user, after);
    announceChannelAccessChange(stoa, user.role === Role.GUEST, visibleBefore, after);
    announceUserAccessChanges(stoa, accessBefore);
    if (role === Role.GUEST) announceUserAccessChanges(stoa, new Map([[userId, null]]));
  });
}

/**
 * A viewer's role decides whose real email they may see; after a role change, tell the
 * viewer's clients about every address that appeared or disappeared.
 */
function announceVisibleEmails(stoa: Stoa, before: UserRow, after: UserRow): void {
  for (const target of stoa.users.inRealm()) {
    const couldSee = canSeeDeliveryEmail(before, target);
    const canSee = canSeeDeliveryEmail(after, target);
    if (couldSee !== canSee) {
      const person = { user_id: target.id, delivery_email: canSee ? target.delivery_email : null };
      sendEvent(stoa, { type: 'realm_user', op: 'update', person }, [after.id]);
    }
  }
}

/**
 * Gives a user a new real email address. Those who may see it learn it; when it is also the
 * API email, everyone learns that; and a provider-hosted avatar, found by address, changes.
 */
export function changeDeliveryEmail(stoa: Stoa, userId: number, email: string): void {
  write(stoa, () => {
    const before = stoa.users.byId(userId)!;
    stoa.users.setDeliveryEmail(userId, email);
    stoa.users.setEmail(userId, apiEmailFor({ ...before, delivery_email: email }, before.email_address_visibility));
    const after = stoa.users.byId(userId)!;
    const viewers = usersWhoCanAccess(stoa, after).filter((id) => canSeeDeliveryEmail(stoa.users.byId(id)!, after));
    sendEvent(stoa, { type: 'realm_user', op: 'update', person: { user_id: userId, delivery_email: email } }, viewers);
    if (after.email !== before.email) announcePersonUpdate(stoa, { user_id: userId, new_email: after.email });
    if (after.avatar_source === 'G') announceAvatar(stoa, after);
  });
}

/**
 * Deactivates an account: it can no longer log in, its event queues end at once, and every
 * client drops it from the active users (and from all groups' member lists).
 */
export function deactivateUser(stoa: Stoa, userId: number): void {
  // A person's bots stop with them, as on Zulip: nobody would be left to answer for them.
  const deactivated = [userId, ...stoa.users.botsOwnedBy(userId).filter((bot) => bot.is_active).map((bot) => bot.id)];
  write(stoa, () => {
    // Guests who saw someone only through a channel lose sight of them (Zulip's realm_user remove).
    const accessBefore = snapshotUserAccess(stoa);
    for (const id of deactivated) {
      // Its sessions stay, refused, so that an open page hears why (lib/http/auth.ts); reactivation ends them.
      stoa.users.setActive(id, false);
      revokeInvitesBy(stoa, id);
      announcePersonUpdate(stoa, { user_id: id, is_active: false });
      announceSubscriberActivity(stoa, id, false);
    }
    announceUserAccessChanges(stoa, accessBefore);
  });
  for (const id of deactivated) for (const queue of [...stoa.queues.queuesOf(id)]) stoa.queues.delete(queue);
}

/** Reactivates an account; clients put it back into the groups it still belongs to. */
export function reactivateUser(stoa: Stoa, userId: number): void {
  write(stoa, () => {
    const accessBefore = snapshotUserAccess(stoa);
    revokeSessions(stoa, userId);
    stoa.users.setActive(userId, true);
    // Guests who see the returning user again through a channel get them whole, first.
    announceUserAccessChanges(stoa, accessBefore);
    announcePersonUpdate(stoa, { user_id: userId, is_active: true });
    announceSubscriberActivity(stoa, userId, true);
    announceReturningSettingHolder(stoa, userId);
    announceReturningGroupSettingHolder(stoa, userId);
    announceReturningRealmSettingHolder(stoa, userId);
    for (const groupId of stoa.groups.groupIdsOfMember(userId)) announceMembership(stoa, 'add_members', groupId, userId);
  });
}

/**
 * A new API key for a person: the old one stops working at once, and so do the phones
 * registered for push notifications with it, which are forgotten, as on Zulip (level 492
 * for end-to-end-encrypted registrations): their logged-in devices go, with `device` remove
 * events.
 */
export function regenerateOwnApiKey(stoa: Stoa, userId: number): string {
  return write(stoa, () => {
    const apiKey = generateApiKey();
    stoa.users.setApiKey(userId, apiKey);
    stoa.push.forgetTokensOfUser(userId);
    for (const device of stoa.devices.ofUser(userId)) removeDevice(stoa, userId, device.id);
    return apiKey;
  });
}

/** Returns a user to the organization's default avatar (level 456), telling everyone's clients. */
export function resetAvatar(stoa: Stoa, userId: number): UserRow {
  return changeAvatar(stoa, userId, realmSetting(stoa, 'realm_default_avatar_source') as 'G' | 'J');
}

/**
 * Switches a user to their avatar's new version: the uploaded one ('U', whose files are
 * already in place), the provider-hosted one ('G') or one drawn here ('J'). Everyone hears of it.
 */
export function changeAvatar(stoa: Stoa, userId: number, source: AvatarSource): UserRow {
  return write(stoa, () => {
    stoa.users.setAvatarSource(userId, source);
    if (source === 'J') drawGeneratedAvatar(stoa, userId);
    const user = stoa.users.byId(userId)!;
    announceAvatar(stoa, user);
    return user;
  });
}
