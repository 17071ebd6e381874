import type { StateContext } from '../events/state-context';
import { userHasRealmPermission, webPublicChannelsEnabled } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { allProfileValues } from '../profile-fields/present';
import { accessCheckFor, inaccessibleUserPlaceholder } from './access';
import { presentUser } from './present';
import { PLAIN_USER_COLUMNS, Role, type UserRow } from './queries';

/** The server's own bots, which clients know as cross-realm bots. */
function crossRealmBots(stoa: Stoa, viewer: UserRow | null, clientGravatar: boolean) {
  return stoa.users
    .systemBots()
    .map((bot) => ({ ...presentUser(viewer, bot, { avatars: stoa.avatars, clientGravatar, profileData: null }), is_system_bot: true }));
}

/** Register state for fetch type `realm_user`: every user, and who the caller is and may do. */
export function realmUserState({ stoa, user, queue }: StateContext): Record<string, unknown> {
  const view = { avatars: stoa.avatars, clientGravatar: queue.clientGravatar, profileData: allProfileValues(stoa) };
  const active: unknown[] = [];
  const inactive: unknown[] = [];
  const accessible = accessCheckFor(stoa, user);
  for (const target of stoa.users.inRealm()) {
    if (accessible(target)) (target.is_active ? active : inactive).push(presentUser(user, target, view));
    // Someone the guest may not see is left out for clients that can do without them, and
    // otherwise listed as Zulip's "Unknown user", who counts as active whatever the truth.
    else if (!queue.capabilities.user_list_incomplete) active.push(inaccessibleUserPlaceholder(target.id));
  }
  const can = (key: string) => userHasRealmPermission(stoa, user, key);
  const canCreatePublic = can('realm_can_create_public_channel_group');
  const canCreatePrivate = can('realm_can_create_private_channel_group');
  const canCreateWebPublic = webPublicChannelsEnabled(stoa) && can('realm_can_create_web_public_channel_group');
  return {
    realm_users: active,
    realm_non_active_users: inactive,
    avatar_source: user.avatar_source,
    avatar_url_medium: stoa.avatars.mediumUrl(user),
    avatar_url: stoa.avatars.url(user),
    can_create_streams: canCreatePublic || canCreatePrivate || canCreateWebPublic,
    can_create_public_streams: canCreatePublic,
    can_create_private_streams: canCreatePrivate,
    can_create_web_public_streams: canCreateWebPublic,
    can_subscribe_other_users: can('realm_can_add_subscribers_group'),
    can_invite_others_to_realm: can('realm_can_invite_users_group'),
    is_admin: user.role <= Role.ADMINISTRATOR,
    is_owner: user.role === Role.OWNER,
    // Moderators and everyone above them, as is_admin includes owners (level 380).
    is_moderator: user.role <= Role.MODERATOR,
    is_guest: user.role === Role.GUEST,
    user_id: user.id,
    email: user.email,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
    cross_realm_bots: crossRealmBots(stoa, user, queue.clientGravatar),
  };
}

/**
 * Whom a spectator's register state describes as "you", as Zulip does: an account nobody
 * has (ID 0), a guest with the default settings. It exists only in that state: it is never
 * stored, and no credentials or session can name it.
 */
export const SPECTATOR_PLACEHOLDER: Readonly<UserRow> = {
  id: 0,
  email: 'username@example.com',
  delivery_email: 'username@example.com',
  full_name: 'Anonymous User',
  api_key: '',
  role: Role.GUEST,
  is_active: 1,
  ...PLAIN_USER_COLUMNS,
};

/**
 * A spectator's `realm_user` state: everyone, as a spectator may see them (no real emails,
 * avatars as URLs, no custom profile fields), and the placeholder as "you", who may do nothing.
 */
export function spectatorRealmUserState({ stoa }: StateContext): Record<string, unknown> {
  const view = { avatars: stoa.avatars, clientGravatar: false, profileData: null };
  const active: unknown[] = [];
  const inactive: unknown[] = [];
  for (const target of stoa.users.inRealm()) (target.is_active ? active : inactive).push(presentUser(null, target, view));
  const you = SPECTATOR_PLACEHOLDER;
  return {
    realm_users: active,
    realm_non_active_users: inactive,
    avatar_source: you.avatar_source,
    avatar_url_medium: stoa.avatars.mediumUrl(you),
    avatar_url: stoa.avatars.url(you),
    can_create_streams: false,
    can_create_public_streams: false,
    can_create_private_streams: false,
    can_create_web_public_streams: false,
    can_subscribe_other_users: false,
    can_invite_others_to_realm: false,
    is_admin: false,
    is_owner: false,
    is_moderator: false,
    is_guest: true,
    user_id: you.id,
    email: you.email,
    delivery_email: you.delivery_email,
    full_name: you.full_name,
    cross_realm_bots: crossRealmBots(stoa, null, false),
  };
}
