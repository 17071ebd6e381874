import type { StateContext } from '../events/state-context';
import { JsonBytes, JsonText } from '../http/json';
import { KeptWhileUnwritten } from '../table-writes';
import { userHasRealmPermission, webPublicChannelsEnabled } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { allProfileValues, profileValuesOf } from '../profile-fields/present';
import { accessCheckFor, accessibleUserIds, inaccessibleUserPlaceholder } from './access';
import { presentUser, type UserView } from './present';
import { PLAIN_USER_COLUMNS, Role, type UserRow } from './queries';

/** The server's own bots, which clients know as cross-realm bots. */
function crossRealmBots(stoa: Stoa, viewer: UserRow | null, clientGravatar: boolean) {
  return stoa.users
    .systemBots()
    .map((bot) => ({ ...presentUser(viewer, bot, { avatars: stoa.avatars, clientGravatar, profileData: null }), is_system_bot: true }));
}

const keptBots = new WeakMap<Stoa, Map<string, KeptWhileUnwritten<JsonText>>>();

/**
 * The cross-realm bots as JSON, for a viewer of a role, kept as the people are (what a viewer
 * sees of a bot depends only on the viewer's role, unless the viewer is a bot, perhaps one of them).
 */
function crossRealmBotsAsJson(stoa: Stoa, viewer: UserRow, clientGravatar: boolean): unknown {
  if (viewer.is_bot) return crossRealmBots(stoa, viewer, clientGravatar);
  let shapes = keptBots.get(stoa);
  if (!shapes) keptBots.set(stoa, (shapes = new Map()));
  const shape = `${viewer.role} ${clientGravatar}`;
  let kept = shapes.get(shape);
  if (!kept) shapes.set(shape, (kept = new KeptWhileUnwritten(stoa.tableWrites, PEOPLE_TABLES)));
  return kept.get(() => new JsonText(JSON.stringify(crossRealmBots(stoa, { ...viewer, id: -1 }, clientGravatar))));
}

/**
 * A JSON array of people, made once and kept as its UTF-8 bytes, and where each person's
 * object lies in them, so that one of them can be replaced (the viewer's own) without joining
 * or encoding the array again.
 */
interface PeopleArray {
  bytes: Buffer;
  spans: Map<number, { start: number; end: number }>;
}

/** The people of the organization as JSON, for viewers of one role: the active ones and the others. */
interface PeopleAsJson {
  active: PeopleArray;
  inactive: PeopleArray;
}

function peopleArray(people: ReadonlyArray<{ id: number; text: string }>): PeopleArray {
  const spans = new Map<number, { start: number; end: number }>();
  let at = 1;
  for (const { id, text } of people) {
    const length = Buffer.byteLength(text);
    spans.set(id, { start: at, end: at + length });
    at += length + 1;
  }
  return { bytes: Buffer.from(`[${people.map((person) => person.text).join(',')}]`), spans };
}

/** The array with one person's object replaced by another text, if they are in it. */
function withPerson(people: PeopleArray, id: number, text: () => string): JsonBytes {
  const span = people.spans.get(id);
  if (!span) return new JsonBytes([people.bytes]);
  return new JsonBytes([people.bytes.subarray(0, span.start), Buffer.from(text()), people.bytes.subarray(span.end)]);
}

/** What realm_users depends on besides the viewer's role and the client's choices. */
const PEOPLE_TABLES = ['users', 'custom_profile_field_values'];

const keptPeople = new WeakMap<Stoa, Map<string, KeptWhileUnwritten<PeopleAsJson>>>();

/**
 * Everyone, as a viewer of the given role sees other people, kept as JSON until a user row or
 * a profile value is written: with a thousand people each /register would otherwise present
 * and serialize the same thousand User objects again. What a viewer sees of someone else
 * depends only on the viewer's role (emails shown to some roles, gravatars computed by the
 * client where the viewer may see the email), so one list serves every viewer of a role.
 */
function peopleAsJson(stoa: Stoa, viewer: UserRow, clientGravatar: boolean): PeopleAsJson {
  let shapes = keptPeople.get(stoa);
  if (!shapes) keptPeople.set(stoa, (shapes = new Map()));
  const shape = `${viewer.role} ${clientGravatar}`;
  let kept = shapes.get(shape);
  if (!kept) shapes.set(shape, (kept = new KeptWhileUnwritten(stoa.tableWrites, PEOPLE_TABLES)));
  return kept.get(() => {
    // Someone of the viewer's role who is nobody in particular: everyone is "someone else".
    const anyone: UserRow = { ...viewer, id: -1 };
    const view: UserView = { avatars: stoa.avatars, clientGravatar, profileData: allProfileValues(stoa) };
    const active: Array<{ id: number; text: string }> = [];
    const inactive: Array<{ id: number; text: string }> = [];
    for (const target of stoa.users.inRealm()) {
      (target.is_active ? active : inactive).push({ id: target.id, text: JSON.stringify(presentUser(anyone, target, view)) });
    }
    return { active: peopleArray(active), inactive: peopleArray(inactive) };
  });
}

/** realm_users and realm_non_active_users for a viewer who may see everyone, from the kept JSON. */
function everyoneAsJson(stoa: Stoa, viewer: UserRow, clientGravatar: boolean): { active: JsonBytes; inactive: JsonBytes } {
  const people = peopleAsJson(stoa, viewer, clientGravatar);
  // The viewer sees more of themselves (their own email) than others do.
  const own = () => JSON.stringify(presentUser(viewer, viewer, { avatars: stoa.avatars, clientGravatar, profileData: profileValuesOf(stoa, viewer.id) }));
  return { active: withPerson(people.active, viewer.id, own), inactive: withPerson(people.inactive, viewer.id, own) };
}

/** Register state for fetch type `realm_user`: every user, and who the caller is and may do. */
export function realmUserState({ stoa, user, queue }: StateContext): Record<string, unknown> {
  let active: unknown;
  let inactive: unknown;
  if (accessibleUserIds(stoa, user) === null) {
    ({ active, inactive } = everyoneAsJson(stoa, user, queue.clientGravatar));
  } else {
    const view = { avatars: stoa.avatars, clientGravatar: queue.clientGravatar, profileData: allProfileValues(stoa) };
    const shown: unknown[] = [];
    const hidden: unknown[] = [];
    const accessible = accessCheckFor(stoa, user);
    for (const target of stoa.users.inRealm()) {
      if (accessible(target)) (target.is_active ? shown : hidden).push(presentUser(user, target, view));
      // Someone the guest may not see is left out for clients that can do without them, and
      // otherwise listed as Zulip's "Unknown user", who counts as active whatever the truth.
      else if (!queue.capabilities.user_list_incomplete) shown.push(inaccessibleUserPlaceholder(target.id));
    }
    active = shown;
    inactive = hidden;
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
    cross_realm_bots: crossRealmBotsAsJson(stoa, user, queue.clientGravatar),
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
