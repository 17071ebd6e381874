import { hashPassword, verifyPassword } from '../auth/credentials';
import { write } from '../events/send';
import { sessionOf } from '../http/auth';
import { checkSpectatorAccess } from '../channels/access';
import { accessGroupToRead } from '../groups/access';
import { endpoint, NO_PARAMS, spectatorEndpoint } from '../http/endpoint';
import { ApiError, badRequest, insufficientPermission, missingArgument, ownerRequired } from '../http/errors';
import type { ParamSchema } from '../http/validate';
import { changeProfileValues } from '../profile-fields/actions';
import { allProfileValues, profileValuesOf } from '../profile-fields/present';
import { checkProfileChanges, profileDataSchema, type ProfileDataEntry } from '../profile-fields/views';
import { realmSetting } from '../realm/settings-store';
import { welcomeNewcomer, welcomeNewUser } from '../realm/welcome';
import type { Stoa } from '../stoa';
import { regenerateBotApiKey } from '../bots/actions';
import { checkBotReactivation } from '../bots/views';
import { deactivateUserWithActions, type DeactivationActions } from './deactivation';
import { addUser, changeDeliveryEmail, changeRole, deactivateUser, reactivateUser, regenerateOwnApiKey, resetAvatar } from './actions';
import { currentSettingValue, isValidNotificationSound, NOT_CHANGEABLE_ORGANIZATION_DEFAULTS, USER_SETTINGS } from './settings';
import {
  changeFullName,
  changeRealmUserSettingsDefaults,
  changeSettingsOfUsers,
  languageName,
  updateAccount,
  type SettingValue,
} from './settings-store';
import { canSeeDeliveryEmail } from './email-visibility';
import { accessCheckFor, checkCanReadUser, inaccessibleUserPlaceholder, refuseBots, requireAdministrator } from './access';
import { checkFullName, EMAIL_SHAPE, MIN_PASSWORD_LENGTH } from './names';
import { checkOwnEmailChange, startEmailChange } from '../mail/account-emails';
import { presentUser } from './present';
import { Role, type RoleValue, type UserRow } from './queries';


const userViewParams = {
  client_gravatar: { type: 'boolean', default: true },
  include_custom_profile_fields: { type: 'boolean', default: false },
} as const;

interface UserViewParams {
  client_gravatar: boolean;
  include_custom_profile_fields: boolean;
}

function profileValuesIf(stoa: Stoa, target: UserRow, wanted: boolean) {
  return wanted ? profileValuesOf(stoa, target.id) : null;
}

function noSuchUser() {
  return badRequest('No such user');
}

/** A user of this organization, active or not; the server's own bots are not addressable here. */
function accessUserById(stoa: Stoa, id: number): UserRow {
  const user = stoa.users.byId(id);
  if (!user || user.is_system_bot) throw noSuchUser();
  return user;
}

/**
 * A user the caller means to change, as Zulip's access_user_by_id(for_admin=True) finds them:
 * bots and deactivated people only where the action takes them, and only for administrators
 * or (for a bot) its owner; anyone else is refused with "Insufficient permission".
 */
function accessUserToAdminister(
  actor: UserRow,
  target: UserRow,
  allow: { deactivated: boolean; bots: boolean },
): UserRow {
  if (target.is_bot && !allow.bots) throw noSuchUser();
  if (!target.is_active && !allow.deactivated) throw badRequest('User is deactivated');
  if (actor.role > Role.ADMINISTRATOR && target.bot_owner_id !== actor.id) throw insufficientPermission();
  return target;
}

const ANY_USER = { deactivated: true, bots: true };

/** By API email, or by real email where the caller may see it. */
function accessUserByEmail(stoa: Stoa, viewer: UserRow, email: string): UserRow {
  const user = stoa.users.byAnyEmail(email);
  if (!user || user.is_system_bot) throw noSuchUser();
  const byApiEmail = user.email.toLowerCase() === email.toLowerCase();
  if (!byApiEmail && !canSeeDeliveryEmail(viewer, user)) throw noSuchUser();
  return user;
}

export const getUsers = spectatorEndpoint<UserViewParams & { user_ids?: number[] }>({
  params: { properties: { ...userViewParams, user_ids: { type: 'array', items: { type: 'integer' } } } },
  view: ({ stoa, user, params }) => {
    // Spectators (organizations with public access) see everyone as register shows them to
    // a spectator: no real emails and no custom profile fields.
    if (!user) checkSpectatorAccess(stoa);
    const profileData = user && params.include_custom_profile_fields ? allProfileValues(stoa) : null;
    const view = { avatars: stoa.avatars, clientGravatar: params.client_gravatar, profileData };
    // Zulip lists the people a guest may not see as "Unknown user" here.
    const accessible = user ? accessCheckFor(stoa, user) : () => true;
    return {
      members: usersListed(stoa, params.user_ids).map((target) =>
        accessible(target) ? presentUser(user ?? null, target, view) : inaccessibleUserPlaceholder(target.id),
      ),
    };
  },
});

/** Everyone in the organization, or just those asked for by ID: as on Zulip, an ID of nobody here is left out, not refused. */
function usersListed(stoa: Stoa, userIds: readonly number[] | undefined): readonly UserRow[] {
  const everyone = stoa.users.inRealm();
  if (userIds === undefined) return everyone;
  const wanted = new Set(userIds);
  return everyone.filter((target) => wanted.has(target.id));
}

export const getOwnUser = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => {
    // The own-user object is a User without the bot fields, plus max_message_id.
    const { bot_type: _botType, bot_owner_id: _botOwnerId, ...me } = presentUser(user, user, {
      avatars: stoa.avatars,
      clientGravatar: false,
      profileData: profileValuesOf(stoa, user.id),
    });
    // No messages exist yet; Zulip answers -1 for a user who has none.
    return { ...me, max_message_id: -1 };
  },
});

export const getUserById = endpoint<UserViewParams & { user_id: number }>({
  params: { properties: { user_id: { type: 'integer' }, ...userViewParams }, required: ['user_id'] },
  pathPatterns: { user_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    const target = checkCanReadUser(stoa, user, accessUserById(stoa, params.user_id));
    const view = { avatars: stoa.avatars, clientGravatar: params.client_gravatar, profileData: profileValuesIf(stoa, target, params.include_custom_profile_fields) };
    return { user: presentUser(user, target, view) };
  },
});

export const getUserByEmail = endpoint<UserViewParams & { email: string }>({
  params: { properties: { email: { type: 'string' }, ...userViewParams }, required: ['email'] },
  view: ({ stoa, user, params }) => {
    const target = checkCanReadUser(stoa, user, accessUserByEmail(stoa, user, params.email));
    const view = { avatars: stoa.avatars, clientGravatar: params.client_gravatar, profileData: profileValuesIf(stoa, target, params.include_custom_profile_fields) };
    return { user: presentUser(user, target, view) };
  },
});


export const createUserView = endpoint<{ email: string; password: string; full_name: string }>({
  params: {
    properties: {
      email: { type: 'string' },
      password: { type: 'string' },
      full_name: { type: 'string' },
    },
    required: ['email', 'password', 'full_name'],
  },
  authorize: requireAdministrator,
  view: async ({ stoa, user, params }) => {
    if (!user.can_create_users) throw badRequest('User not authorized to create users');
    const account = await newAccount(params);
    // Until its owner first logs in, an account made for them joined when it was made (level 475).
    // The Welcome Bot greets it as it greets everyone who joins (Zulip's process_new_human_user):
    // its own first message, then the organization's custom one when there is one.
    const userId = write(stoa, () => {
      const id = addUser(stoa, { ...account, role: Role.MEMBER, joinsAtFirstLogin: true });
      const newcomer = stoa.users.byId(id)!;
      welcomeNewUser(stoa, newcomer);
      welcomeNewcomer(stoa, newcomer, null);
      return id;
    });
    return { user_id: userId };
  },
});

/**
 * A new account's email, name and password checked, the password hashed: for POST /users and
 * for signing up through an invitation alike.
 */
export async function newAccount(params: { email: string; password: string; full_name: string }) {
  const fullName = params.full_name.trim();
  checkFullName(fullName);
  const email = params.email.trim();
  if (!EMAIL_SHAPE.test(email)) throw badRequest('Bad name or username');
  if (params.password.length < MIN_PASSWORD_LENGTH) throw badRequest('The password is too weak.');
  // Hashing is slow and asynchronous, so it happens before the transaction, never inside it.
  const passwordHash = await hashPassword(params.password);
  return { email, fullName, passwordHash };
}

function isTimezone(name: string): boolean {
  if (name === '') return true; // no timezone set
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Checks beyond each setting's schema: values drawn from lists the server keeps. */
function checkSetting(name: string, value: SettingValue): void {
  if (name === 'notification_sound' && !isValidNotificationSound(value as string)) {
    throw badRequest(`Invalid notification sound '${String(value)}'`);
  }
  if (name === 'default_language' && languageName(value as string) === undefined) {
    throw badRequest('Invalid default_language');
  }
  if (name === 'timezone' && !isTimezone(value as string)) throw badRequest(`Invalid timezone '${String(value)}'`);
}

const SETTINGS_PARAMS: Record<string, ParamSchema> = {
  ...Object.fromEntries(USER_SETTINGS.map((def) => [def.name, def.schema])),
  full_name: { type: 'string' },
  email: { type: 'string' },
  old_password: { type: 'string' },
  new_password: { type: 'string' },
  // Whose settings an administrator changes, when not their own (level 444).
  target_users: {
    type: 'object',
    properties: {
      user_ids: { type: 'array', items: { type: 'integer' } },
      group_ids: { type: 'array', items: { type: 'integer' } },
      skip_if_already_edited: { type: 'boolean' },
    },
    // Zulip's description leaves it optional, but its parser requires it.
    required: ['skip_if_already_edited'],
    additionalProperties: false,
  },
};

interface TargetUsers {
  user_ids?: number[];
  group_ids?: number[];
  skip_if_already_edited: boolean;
}

interface AccountParams {
  full_name?: string;
  email?: string;
  old_password?: string;
  new_password?: string;
  target_users?: TargetUsers;
}

/**
 * The people a change for many users reaches, as Zulip finds them: those named, deactivated or
 * not (so the change holds if they come back), and the active members of the groups named
 * (through their subgroups too). Settings are people's: bots, named or in a group, are passed over.
 */
function targetUserIds(stoa: Stoa, target: TargetUsers): number[] {
  const userIds = target.user_ids ?? [];
  const groupIds = target.group_ids ?? [];
  if (userIds.length === 0 && groupIds.length === 0) throw badRequest('Either user_ids or group_ids must be provided.');
  const ids = new Set<number>();
  for (const id of userIds) {
    const person = stoa.users.byId(id);
    if (!person) throw badRequest(`Invalid user ID: ${id}`);
    if (!person.is_bot) ids.add(id);
  }
  for (const groupId of groupIds) {
    const group = accessGroupToRead(stoa, groupId);
    for (const id of stoa.groups.recursiveMemberIds(group.id)) {
      const member = stoa.users.byId(id);
      if (member?.is_active && !member.is_bot) ids.add(id);
    }
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * What an administrator may not change for others (Zulip's "security sensitive" settings, and
 * the account's address, password and time zone), refused in Zulip's words. The name and the
 * old password are not settings: Zulip passes over them in a change for others.
 */
const NOT_FOR_OTHER_USERS: ReadonlySet<string> = new Set([
  'email',
  'new_password',
  'timezone',
  'allow_private_data_export',
  'email_address_visibility',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'presence_enabled',
  'send_private_typing_notifications',
  'send_read_receipts',
  'send_stream_typing_notifications',
]);

function checkSettingsForOthers(params: AccountParams, settings: Record<string, SettingValue>): void {
  const named = [...Object.keys(settings), ...(['email', 'new_password'] as const).filter((name) => params[name] !== undefined)];
  if (named.some((name) => NOT_FOR_OTHER_USERS.has(name))) throw badRequest('Cannot change this setting for other users.');
}

export const updateSettings = endpoint<AccountParams & Record<string, SettingValue | undefined>>({
  params: { properties: SETTINGS_PARAMS },
  authorize: refuseBots,
  view: async ({ stoa, user, params, req }) => {
    const { full_name, email, old_password, new_password, target_users, ...rest } = params;
    const settings = Object.fromEntries(
      Object.entries(rest)
        .filter(([, v]) => v !== undefined)
        .map(([name, value]) => [name, currentSettingValue(name, value)]),
    ) as Record<string, SettingValue>;
    if (target_users !== undefined) {
      requireAdministrator(user);
      checkSettingsForOthers(params, settings);
      const userIds = targetUserIds(stoa, target_users);
      // Zulip does not check these values for others; Stoa does, so no one is given a bad one.
      for (const [name, value] of Object.entries(settings)) checkSetting(name, value);
      changeSettingsOfUsers(stoa, userIds, settings, target_users.skip_if_already_edited);
      return {};
    }
    for (const [name, value] of Object.entries(settings)) checkSetting(name, value);

    let fullName: string | undefined;
    if (full_name !== undefined) {
      fullName = full_name.trim();
      checkFullName(fullName);
      if (fullName !== user.full_name && realmSetting(stoa, 'realm_name_changes_disabled') && user.role > Role.ADMINISTRATOR) {
        throw badRequest('Name changes are disabled in this organization. Contact an administrator to change your name.');
      }
    }
    // A new address is only confirmed by a link mailed to it (see mail/account-emails.ts).
    const newEmail = email === undefined ? undefined : checkOwnEmailChange(stoa, user, email);
    let passwordHash: string | undefined;
    if (new_password !== undefined) {
      // An account made without a password (the demo's people, who sign in through the
      // development login) sets its first one without an old one: there is none to give.
      if (user.password_hash !== null) {
        if (old_password === undefined) throw missingArgument('old_password');
        if (!(await verifyPassword(old_password, user.password_hash))) throw badRequest('Wrong password!');
      }
      if (new_password.length < MIN_PASSWORD_LENGTH) throw badRequest('The password is too weak.');
      passwordHash = await hashPassword(new_password);
    }

    // A new password signs out every other browser; the one that changed it stays signed in.
    if (newEmail !== undefined) startEmailChange(stoa, user, newEmail);
    updateAccount(stoa, user.id, { fullName, passwordHash, keepSessionId: sessionOf(req)?.id, settings });
    return {};
  },
});

/**
 * PATCH /realm/user_settings_defaults: administrators choose the settings new users start
 * with, each checked as PATCH /settings checks it; a request with one bad value changes nothing.
 */
export const updateRealmUserSettingsDefaults = endpoint<Record<string, SettingValue | undefined>>({
  params: {
    properties: Object.fromEntries(
      USER_SETTINGS.filter((def) => !NOT_CHANGEABLE_ORGANIZATION_DEFAULTS.has(def.name)).map((def) => [def.name, def.schema]),
    ),
  },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    const changes = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Record<string, SettingValue>;
    for (const [name, value] of Object.entries(changes)) checkSetting(name, value);
    changeRealmUserSettingsDefaults(stoa, changes);
    return {};
  },
});

/** Zulip's refusal to leave an organization without an owner, or without anyone. */
function cannotDeactivateLast(isLastOwner: boolean): ApiError {
  const entity = isLastOwner ? 'organization owner' : 'user';
  return new ApiError('CANNOT_DEACTIVATE_LAST_USER', `Cannot deactivate the only ${entity}.`, 400, {
    is_last_owner: isLastOwner,
    entity,
  });
}

function isOnlyOwner(stoa: Stoa, user: UserRow): boolean {
  return user.role === Role.OWNER && user.is_active === 1 && stoa.users.activeOwnerCount() === 1;
}

/** Every organization role, as parameters take them. */
export const ROLES = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST];

interface UpdateUserParams {
  full_name?: string;
  role?: RoleValue;
  profile_data?: ProfileDataEntry[];
  new_email?: string;
}

const UPDATE_USER_PARAMS = {
  full_name: { type: 'string' },
  role: { type: 'integer', enum: ROLES },
  profile_data: profileDataSchema(true),
  new_email: { type: 'string' },
};

/** A new address for someone else: Zulip's special permission, a valid address nobody else has. */
function checkNewEmail(stoa: Stoa, user: UserRow, target: UserRow, newEmail: string | undefined): string | undefined {
  const email = newEmail?.trim();
  if (email === undefined || email === target.delivery_email) return undefined;
  if (!user.can_change_user_emails || user.role > Role.ADMINISTRATOR) throw badRequest('User not authorized to change user emails');
  if (!EMAIL_SHAPE.test(email)) throw badRequest('New email value error: Invalid address.');
  const holder = stoa.users.byAnyEmail(email);
  if (holder && holder.id !== target.id) throw badRequest('New email value error: Email is already in use.');
  return email;
}

/** What PATCH /users/{user_id} and PATCH /users/{email} change: checked first, then applied. */
function updateUserAsAsked(stoa: Stoa, user: UserRow, target: UserRow, params: UpdateUserParams) {
  const fullName = params.full_name?.trim();
  if (fullName !== undefined) checkFullName(fullName);
  if (params.role !== undefined && params.role !== target.role) {
    // Only owners make or unmake owners, only administrators change roles (a bot's owner may
    // rename it, not promote it), and the last owner stays one.
    if ((target.role === Role.OWNER || params.role === Role.OWNER) && user.role !== Role.OWNER) throw ownerRequired();
    requireAdministrator(user);
    if (target.role === Role.OWNER && isOnlyOwner(stoa, target)) {
      throw badRequest('The owner permission cannot be removed from the only organization owner.');
    }
  }
  const profileChanges = params.profile_data && checkProfileChanges(stoa, user, params.profile_data, true);
  const newEmail = checkNewEmail(stoa, user, target, params.new_email);
  if (fullName !== undefined) changeFullName(stoa, target.id, fullName);
  if (params.role !== undefined) changeRole(stoa, target.id, params.role);
  if (profileChanges) changeProfileValues(stoa, target.id, profileChanges);
  if (newEmail !== undefined) changeDeliveryEmail(stoa, target.id, newEmail);
  return {};
}

export const updateUser = endpoint<UpdateUserParams & { user_id: number }>({
  params: { properties: { user_id: { type: 'integer' }, ...UPDATE_USER_PARAMS }, required: ['user_id'] },
  pathPatterns: { user_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    return updateUserAsAsked(stoa, user, accessUserToAdminister(user, accessUserById(stoa, params.user_id), ANY_USER), params);
  },
});

/** The same, for a user named by email (API email, or real email where the caller may see it). */
export const updateUserByEmail = endpoint<UpdateUserParams & { email: string }>({
  params: { properties: { email: { type: 'string' }, ...UPDATE_USER_PARAMS }, required: ['email'] },
  view: ({ stoa, user, params }) => {
    return updateUserAsAsked(stoa, user, accessUserToAdminister(user, accessUserByEmail(stoa, user, params.email), ANY_USER), params);
  },
});

export const deactivateUserView = endpoint<{ user_id: number; deactivation_notification_comment?: string; actions: DeactivationActions }>({
  params: {
    properties: {
      user_id: { type: 'integer' },
      // What else to do while deactivating (level 459).
      actions: {
        type: 'object',
        properties: {
          delete_profile: { type: 'boolean' },
          delete_public_channel_messages: { type: 'boolean' },
          delete_private_channel_messages: { type: 'boolean' },
          delete_direct_messages: { type: 'boolean' },
        },
        additionalProperties: false,
        default: {},
      },
      // Zulip mails this to the user; Stoa sends no mail, so it is accepted and not used.
      deactivation_notification_comment: { type: 'string', maxLength: 2000 },
    },
    required: ['user_id'],
  },
  pathPatterns: { user_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    const target = accessUserToAdminister(user, accessUserById(stoa, params.user_id), { deactivated: false, bots: false });
    if (target.role === Role.OWNER && user.role !== Role.OWNER) throw ownerRequired();
    if (isOnlyOwner(stoa, target)) throw badRequest('Cannot deactivate the only organization owner');
    deactivateUserWithActions(stoa, user, target.id, params.actions);
    return {};
  },
});

export const reactivateUserView = endpoint<{ user_id: number }>({
  params: { properties: { user_id: { type: 'integer' } }, required: ['user_id'] },
  pathPatterns: { user_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    const target = accessUserToAdminister(user, accessUserById(stoa, params.user_id), ANY_USER);
    if (target.is_bot) checkBotReactivation(stoa, user, target.id);
    if (target.is_active) throw badRequest('User is already active');
    reactivateUser(stoa, target.id);
    return {};
  },
});

export const deactivateOwnAccount = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => {
    // Zulip's order: the only active account (bots count, the system bots do not), then the
    // only owner.
    if (stoa.users.activeIds().length === 1) throw cannotDeactivateLast(false);
    if (isOnlyOwner(stoa, user)) throw cannotDeactivateLast(true);
    deactivateUser(stoa, user.id);
    return {};
  },
});

/**
 * POST /users/me/api_key/regenerate: the caller's new API key. A bot regenerating its own key
 * is announced to its owner, as any change of a bot's key is.
 */
export const regenerateOwnApiKeyView = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => ({ api_key: user.is_bot ? regenerateBotApiKey(stoa, user.id) : regenerateOwnApiKey(stoa, user.id) }),
});

/** Drops an uploaded avatar for the provider-hosted one (the only kind Stoa has so far). */
export const deleteOwnAvatar = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => ({ avatar_url: stoa.avatars.url(resetAvatar(stoa, user.id)) }),
});
