import { accessChannelByName } from '../channels/access';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { ApiError, badRequest, insufficientPermission, ownerRequired } from '../http/errors';
import { userHasRealmPermission } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { changeDeliveryEmail, changeRole, deactivateUser } from '../users/actions';
import { botEmailDomain } from '../users/email-visibility';
import { requireAdministrator, requireMemberOrAdmin } from '../users/access';
import { Role, type RoleValue, type UserRow } from '../users/queries';
import { changeFullName } from '../users/settings-store';
import { checkFullName } from '../users/names';
import { avatarReceiver, useAvatar, withBotAvatar, type AvatarImages } from '../users/avatar-views';
import type { Request } from 'express';
import { changeBotDefaults, changeBotOwner, changeBotService, createBot as insertBot, regenerateBotApiKey } from './actions';
import { botDefaults } from './present';
import { BotType, ServiceInterface } from './queries';

/** The bot types one may create: Stoa runs no embedded bots, as Zulip without EMBEDDED_BOTS_ENABLED. */
const CREATABLE_BOT_TYPES: readonly number[] = [BotType.GENERIC, BotType.INCOMING_WEBHOOK, BotType.OUTGOING_WEBHOOK];
const SERVICE_INTERFACES: readonly number[] = [ServiceInterface.GENERIC, ServiceInterface.SLACK];
const BOT_ID = { bot_id: /^\d+$/ };
const ROLES = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST];
/** What may come before "-bot@" in a bot's email. */
const SHORT_NAME_SHAPE = /^[A-Za-z0-9._+-]+$/;



/** A bot the caller may administer: their own, or any bot for an administrator. */
export function accessBot(stoa: Stoa, user: UserRow, botId: number): UserRow {
  const bot = stoa.users.byId(botId);
  if (!bot || !bot.is_bot || bot.is_system_bot) throw badRequest('No such bot');
  if (user.role > Role.ADMINISTRATOR && bot.bot_owner_id !== user.id) throw insufficientPermission();
  // A bot that may create users is an owner's responsibility, as on Zulip.
  if (bot.can_create_users && user.role !== Role.OWNER) throw ownerRequired();
  return bot;
}

/** The email a bot's short name gives it, the short name checked. */
function botEmailFor(stoa: Stoa, rawShortName: string): string {
  const shortName = rawShortName.trim();
  if (shortName === '' || !SHORT_NAME_SHAPE.test(shortName)) throw badRequest('Bad name or username');
  return `${shortName}-bot@${botEmailDomain(stoa.site)}`;
}

/**
 * Bots are named apart from everyone active, so people can tell them from each other; a bot
 * brought back is told what to do about the one that took its name, in Zulip's words.
 */
function checkBotNameFree(stoa: Stoa, fullName: string, reactivating = false): void {
  if (!stoa.users.inRealm().some((other) => other.is_active && other.full_name === fullName)) return;
  if (reactivating) {
    throw badRequest(
      `There is already an active bot named "${fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
    );
  }
  throw badRequest('Name is already in use.');
}

/** A channel name, or "" for none, as the caller may name it. */
function channelIdFor(stoa: Stoa, user: UserRow, name: string): number | null {
  return name === '' ? null : accessChannelByName(stoa, user, name).id;
}

/**
 * An outgoing webhook's URL. Zulip's clients send it JSON-encoded, scripts often as it is; both
 * arrive here as the string. Only http and https: it is where the server POSTs messages.
 */
function checkPayloadUrl(name: string, value: unknown): string {
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // Refused below with every other URL the server would not call.
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw badRequest(`${name} is not a URL`);
  }
  return value;
}

function checkInterface(serviceInterface: number): void {
  if (!SERVICE_INTERFACES.includes(serviceInterface)) throw badRequest('Invalid interface type');
}

function checkCanCreate(stoa: Stoa, user: UserRow, botType: number): void {
  if (userHasRealmPermission(stoa, user, 'realm_can_create_bots_group')) return;
  const writeOnly = botType === BotType.INCOMING_WEBHOOK;
  if (writeOnly && userHasRealmPermission(stoa, user, 'realm_can_create_write_only_bots_group')) return;
  throw insufficientPermission();
}

/**
 * Who may bring a deactivated bot back, as Zulip decides: whoever administers it (its owner
 * too) and may still create bots of its type, and only while no active account has its name.
 */
export function checkBotReactivation(stoa: Stoa, user: UserRow, botId: number): void {
  const bot = accessBot(stoa, user, botId);
  checkCanCreate(stoa, user, bot.bot_type ?? BotType.GENERIC);
  checkBotNameFree(stoa, bot.full_name, true);
}

interface CreateParams {
  full_name: string;
  short_name: string;
  bot_type: number;
  service_name?: string;
  config_data: Record<string, string>;
  payload_url?: unknown;
  interface_type: number;
  default_sending_stream?: string;
  default_events_register_stream?: string;
  default_all_public_streams?: boolean;
}

export const createBotView = endpoint<CreateParams>({
  fileReceiver: botAvatarReceiver,
  params: {
    properties: {
      full_name: { type: 'string' },
      short_name: { type: 'string' },
      bot_type: { type: 'integer', default: BotType.GENERIC },
      // Integrations' names and settings for incoming webhooks; Stoa has no integrations to check them against.
      service_name: { type: 'string' },
      config_data: { type: 'object', additionalProperties: { type: 'string' }, default: {} },
      // Decoded as JSON when it parses, kept as text otherwise (see checkPayloadUrl).
      payload_url: {},
      interface_type: { type: 'integer', default: ServiceInterface.GENERIC },
      default_sending_stream: { type: 'string' },
      default_events_register_stream: { type: 'string' },
      default_all_public_streams: { type: 'boolean' },
    },
    required: ['full_name', 'short_name'],
  },
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user, params, req }) => withBotAvatar(req as Request, (avatar) => createBotWithAvatar(stoa, user, params, avatar)),
});

/** Checks everything first, then creates the bot, then gives it the avatar it came with. */
async function createBotWithAvatar(stoa: Stoa, user: UserRow, params: CreateParams, avatar: AvatarImages | undefined) {
  const payloadUrl = params.payload_url === undefined ? '' : checkPayloadUrl('payload_url', params.payload_url);
  const shortName = params.short_name.trim();
  const email = botEmailFor(stoa, shortName);
  const fullName = params.full_name.trim();
  checkFullName(fullName);
  if (stoa.users.byAnyEmail(email)) throw badRequest('Username already in use');
  checkBotNameFree(stoa, fullName);
  checkCanCreate(stoa, user, params.bot_type);
  if (!CREATABLE_BOT_TYPES.includes(params.bot_type)) throw badRequest('Invalid bot type');
  checkInterface(params.interface_type);
  const sendingChannelId =
    params.default_sending_stream === undefined ? null : accessChannelByName(stoa, user, params.default_sending_stream).id;
  const eventsChannelId =
    params.default_events_register_stream === undefined
      ? null
      : accessChannelByName(stoa, user, params.default_events_register_stream).id;
  let bot = insertBot(stoa, {
    email,
    fullName,
    type: params.bot_type,
    ownerId: user.id,
    sendingChannelId,
    eventsChannelId,
    allPublicChannels: params.default_all_public_streams ?? false,
    // Created without a URL, an outgoing webhook gets one later through PATCH /bots/{bot_id}.
    service:
      params.bot_type === BotType.OUTGOING_WEBHOOK
        ? { name: params.service_name ?? shortName, baseUrl: payloadUrl, interface: params.interface_type }
        : undefined,
  });
  if (avatar) bot = await useBotAvatar(stoa, bot, avatar);
  return { user_id: bot.id, api_key: bot.api_key, avatar_url: stoa.avatars.url(bot), ...botDefaults(stoa, bot) };
}

/** A bot's new avatar, told to everyone as a user's is (its Bot object has none since level 474). */
async function useBotAvatar(stoa: Stoa, bot: UserRow, avatar: AvatarImages): Promise<UserRow> {
  return useAvatar(stoa, bot.id, avatar);
}

function botAvatarReceiver(stoa: Stoa) {
  return avatarReceiver(stoa, () => badRequest('You may only upload one file at a time'));
}

export const getBots = endpoint({
  params: NO_PARAMS,
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user }) => {
    const bots = stoa.users.botsOwnedBy(user.id).filter((bot) => bot.is_active);
    return {
      bots: bots.map((bot) => ({
        username: bot.email,
        full_name: bot.full_name,
        api_key: bot.api_key,
        avatar_url: stoa.avatars.url(bot),
        ...botDefaults(stoa, bot),
      })),
    };
  },
});

interface UpdateParams {
  bot_id: number;
  full_name?: string;
  short_name?: string;
  role?: RoleValue;
  bot_owner_id?: number;
  default_sending_stream?: string;
  default_events_register_stream?: string;
  default_all_public_streams?: boolean;
  service_payload_url?: unknown;
  service_interface: number;
  config_data?: Record<string, string>;
}

function failedOwnerChange(reason: string): ApiError {
  return badRequest(`Failed to change owner, ${reason}`);
}

export const updateBotView = endpoint<UpdateParams>({
  params: {
    properties: {
      bot_id: { type: 'integer' },
      full_name: { type: 'string' },
      // A new email for the bot, made as at its creation (level 447).
      short_name: { type: 'string' },
      role: { type: 'integer', enum: ROLES },
      bot_owner_id: { type: 'integer' },
      default_sending_stream: { type: 'string' },
      default_events_register_stream: { type: 'string' },
      default_all_public_streams: { type: 'boolean' },
      // Decoded as JSON when it parses, kept as text otherwise (see checkPayloadUrl).
      service_payload_url: {},
      service_interface: { type: 'integer', default: ServiceInterface.GENERIC },
      // Settings of embedded bots and integrations, neither of which Stoa has: checked and
      // answered back as Zulip answers them, but not kept.
      config_data: { type: 'object', additionalProperties: { type: 'string' } },
    },
    required: ['bot_id'],
  },
  pathPatterns: BOT_ID,
  fileReceiver: botAvatarReceiver,
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user, params, req }) => withBotAvatar(req as Request, (avatar) => updateBot(stoa, user, params, avatar)),
});

/** Checks everything first, then changes what the request names, the avatar last. */
async function updateBot(stoa: Stoa, user: UserRow, params: UpdateParams, avatar: AvatarImages | undefined) {
  const bot = accessBot(stoa, user, params.bot_id);
  const fullName = params.full_name?.trim();
  const renamed = fullName !== undefined && fullName !== bot.full_name;
  if (renamed) {
    checkFullName(fullName);
    checkBotNameFree(stoa, fullName);
  }
  let newEmail: string | undefined;
  if (params.short_name !== undefined) {
    const email = botEmailFor(stoa, params.short_name);
    const holder = stoa.users.byAnyEmail(email);
    if (holder && holder.id !== bot.id) throw badRequest('Username already in use');
    if (email !== bot.delivery_email) newEmail = email;
  }
  const newRole = params.role !== undefined && params.role !== bot.role ? params.role : undefined;
  if (newRole !== undefined) {
    if ((newRole === Role.OWNER || bot.role === Role.OWNER) && user.role !== Role.OWNER) {
      throw new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    }
    requireAdministrator(user);
  }
  if (params.bot_owner_id !== undefined) {
    const owner = stoa.users.byId(params.bot_owner_id);
    if (!owner || owner.is_system_bot) throw failedOwnerChange('no such user');
    if (!owner.is_active) throw failedOwnerChange('user is deactivated');
    if (owner.is_bot) throw failedOwnerChange("bots can't own other bots");
  }
  const sendingChannelId =
    params.default_sending_stream === undefined ? undefined : channelIdFor(stoa, user, params.default_sending_stream);
  const eventsChannelId =
    params.default_events_register_stream === undefined
      ? undefined
      : channelIdFor(stoa, user, params.default_events_register_stream);
  let payloadUrl: string | undefined;
  if (params.service_payload_url !== undefined) {
    payloadUrl = checkPayloadUrl('service_payload_url', params.service_payload_url);
    checkInterface(params.service_interface);
    if (!stoa.botServices.ofBot(bot.id)) throw badRequest('This bot has no outgoing webhook to change');
  }

  if (renamed) changeFullName(stoa, bot.id, fullName);
  // Everyone hears of the new address in realm_user events; since level 474 no realm_bot
  // event carries it (so level 461's one is not sent either).
  if (newEmail !== undefined) changeDeliveryEmail(stoa, bot.id, newEmail);
  if (newRole !== undefined) changeRole(stoa, bot.id, newRole);
  if (params.bot_owner_id !== undefined) changeBotOwner(stoa, bot.id, params.bot_owner_id);
  changeBotDefaults(stoa, bot.id, {
    sendingChannelId,
    eventsChannelId,
    allPublicChannels: params.default_all_public_streams,
  });
  if (payloadUrl !== undefined) changeBotService(stoa, bot.id, payloadUrl, params.service_interface);

  const after = avatar ? await useBotAvatar(stoa, bot, avatar) : stoa.users.byId(bot.id)!;
  const owner = after.bot_owner_id === null ? undefined : stoa.users.byId(after.bot_owner_id);
  return {
    full_name: after.full_name,
    avatar_url: stoa.avatars.url(after),
    // As Zulip answers: what the request asked for, not what the bot has.
    service_interface: params.service_interface,
    service_payload_url: payloadUrl ?? null,
    config_data: params.config_data ?? null,
    ...botDefaults(stoa, after),
    ...(owner ? { bot_owner: owner.email } : {}),
  };
}

export const deactivateBotView = endpoint<{ bot_id: number }>({
  params: { properties: { bot_id: { type: 'integer' } }, required: ['bot_id'] },
  pathPatterns: BOT_ID,
  // Zulip's deactivate_bot_backend asks only access_bot_by_id: no role first.
  view: ({ stoa, user, params }) => {
    const bot = accessBot(stoa, user, params.bot_id);
    if (!bot.is_active) throw badRequest('User is already deactivated');
    deactivateUser(stoa, bot.id);
    return {};
  },
});

/** GET /bots/{bot_id}/api_key (level 463): for the bot's owner and administrators. */
export const getBotApiKey = endpoint<{ bot_id: number }>({
  params: { properties: { bot_id: { type: 'integer' } }, required: ['bot_id'] },
  pathPatterns: BOT_ID,
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user, params }) => {
    return { api_key: accessBot(stoa, user, params.bot_id).api_key };
  },
});

export const regenerateBotApiKeyView = endpoint<{ bot_id: number }>({
  params: { properties: { bot_id: { type: 'integer' } }, required: ['bot_id'] },
  pathPatterns: BOT_ID,
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user, params }) => {
    const bot = accessBot(stoa, user, params.bot_id);
    return { api_key: regenerateBotApiKey(stoa, bot.id) };
  },
});
