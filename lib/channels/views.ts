import { accessBot } from '../bots/views';
import { write } from '../events/send';
import { GROUP_SETTING_VALUE_SCHEMA, parseGroupSettingValue, type GroupSettingValue } from '../groups/settings';
import { endpoint } from '../http/endpoint';
import { ApiError, badRequest, insufficientPermission } from '../http/errors';
import type { ParamSchema } from '../http/validate';
import { checkCanPost } from '../messages/addressing';
import { postSubscriptionNotices } from '../messages/notices';
import { userHasRealmPermission, webPublicChannelsEnabled } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { checkCanReadUser, refuseGuests } from '../users/access';
import { Role, type UserRow } from '../users/queries';
import {
  accessChannelById,
  accessChannelByName,
  canAddSubscribers,
  canRemoveSubscribers,
  CHANNEL_SETTINGS,
  hasContentAccess,
  hasMetadataAccess,
  isSubscribed,
} from './access';
import { channelEmailToken, subscribeToChannels, unsubscribeFromChannels, type NewChannelSpec } from './actions';
import { accessChannelFolder } from './folders';
import { checkChannelName, cleanDescription, MAX_CHANNEL_DESCRIPTION_LENGTH } from './names';
import { presentChannel, presentSubscription, type SubscriberListing } from './present';
import { CHANNEL_GROUP_SETTINGS, type ChannelGroupSetting, type ChannelRow, type TopicsPolicy } from './queries';

export const TOPICS_POLICIES: readonly TopicsPolicy[] = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'];

/** User IDs, or (the older way) API emails; not a mix. */
const PRINCIPALS: ParamSchema = {
  anyOf: [
    { type: 'array', items: { type: 'integer' } },
    { type: 'array', items: { type: 'string' } },
  ],
};
const INCLUDE_SUBSCRIBERS: ParamSchema = { type: ['boolean', 'string'], enum: [true, false, 'partial'], default: false };


/**
 * Administrators may always change a channel's delicate settings; others (already able to
 * administer the channel) need the organization's permission for it as well.
 */
export function mayChange(stoa: Stoa, user: UserRow, realmKey: string): boolean {
  return user.role <= Role.ADMINISTRATOR || userHasRealmPermission(stoa, user, realmKey);
}


/** The users named by principals (IDs or API emails); the caller when there are none. */
function resolvePrincipals(stoa: Stoa, caller: UserRow, principals: Array<number | string> | undefined): UserRow[] {
  if (!principals || principals.length === 0) return [caller];
  const users = new Map<number, UserRow>();
  for (const principal of principals) {
    const user = typeof principal === 'number' ? stoa.users.byId(principal) : stoa.users.byAnyEmail(principal);
    if (!user || user.is_system_bot) throw badRequest('No such user');
    if (!user.is_active) throw badRequest('User is deactivated');
    users.set(user.id, user);
  }
  return [...users.values()];
}

/** Does the request act on anyone besides the caller? */
function actsOnOthers(caller: UserRow, users: readonly UserRow[]): boolean {
  return users.some((user) => user.id !== caller.id);
}

/** Unsubscribing anyone but oneself and one's own bots takes a permission (as on Zulip). */
function unsubscribesOthers(caller: UserRow, users: readonly UserRow[]): boolean {
  return users.some((user) => user.id !== caller.id && !(user.is_bot && user.bot_owner_id === caller.id));
}

/** "realm_default" follows the organization, "unlimited" keeps forever (-1), else days. */
export function parseRetention(value: number | string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw new ApiError('REQUEST_VARIABLE_INVALID', `Bad value for 'message_retention_days': ${value}`, 400, {
    var_name: 'message_retention_days',
    bad_value: value,
  });
}

interface SubscribeParams extends Partial<Record<ChannelGroupSetting, GroupSettingValue>> {
  subscriptions: Array<{ name: string; description?: string; color?: string }>;
  principals?: Array<number | string>;
  authorization_errors_fatal: boolean;
  announce: boolean;
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  history_public_to_subscribers?: boolean;
  message_retention_days?: number | string;
  topics_policy?: TopicsPolicy;
  folder_id?: number;
  send_new_subscription_messages: boolean;
}

/** The channels to join: by name, with a description for a channel this creates. */
const SUBSCRIPTION_REQUESTS: ParamSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      description: { type: 'string', maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH },
      color: { type: 'string', pattern: '^#[0-9a-fA-F]{3,6}$' },
    },
    required: ['name'],
    additionalProperties: false,
  },
};

/** Checks that the caller may create a channel like this, in the order Zulip checks. */
function checkCreation(stoa: Stoa, user: UserRow, params: NewChannelParams, retention: number | null | undefined): void {
  const realmCan = (key: string) => userHasRealmPermission(stoa, user, key);
  if (params.invite_only && !realmCan('realm_can_create_private_channel_group')) throw insufficientPermission();
  if (!params.invite_only && !realmCan('realm_can_create_public_channel_group')) throw insufficientPermission();
  if (params.is_default_stream && user.role > Role.ADMINISTRATOR) throw insufficientPermission();
  if (params.invite_only && params.is_default_stream) throw badRequest('A default channel cannot be private.');
  if (params.is_web_public) {
    if (!webPublicChannelsEnabled(stoa)) throw badRequest('Web-public channels are not enabled.');
    if (!realmCan('realm_can_create_web_public_channel_group')) throw insufficientPermission();
  }
  if (retention !== undefined && retention !== null && user.role !== Role.OWNER) {
    throw new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  }
}

/** The settings a new channel may be given, for POST /users/me/subscriptions and /channels/create. */
const NEW_CHANNEL_SETTINGS: Record<string, ParamSchema> = {
  invite_only: { type: 'boolean', default: false },
  is_web_public: { type: 'boolean', default: false },
  is_default_stream: { type: 'boolean', default: false },
  history_public_to_subscribers: { type: 'boolean' },
  message_retention_days: { type: ['integer', 'string'] },
  topics_policy: { type: 'string', enum: [...TOPICS_POLICIES] },
  folder_id: { type: 'integer' },
  ...Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((s) => [s, GROUP_SETTING_VALUE_SCHEMA])),
};

type NewChannelParams = Omit<SubscribeParams, 'subscriptions' | 'principals' | 'authorization_errors_fatal' | 'announce' | 'send_new_subscription_messages'>;

/**
 * Checks a request's settings for new channels, in the order Zulip checks: at once the ones
 * checked whether or not a channel is created, and the rest, with the caller's permission to
 * create such channels, by the function returned, which makes the channels' specifications.
 */
function newChannelSettings(stoa: Stoa, user: UserRow, params: NewChannelParams) {
  const retention = parseRetention(params.message_retention_days);
  const topicsPolicy = params.topics_policy ?? 'inherit';
  if (topicsPolicy !== 'inherit' && !mayChange(stoa, user, 'realm_can_set_topics_policy_group')) throw insufficientPermission();
  return (entries: ReadonlyArray<{ name: string; description: string }>) => newChannelSpecs(stoa, user, params, entries, retention, topicsPolicy);
}

function newChannelSpecs(
  stoa: Stoa,
  user: UserRow,
  params: NewChannelParams,
  entries: ReadonlyArray<{ name: string; description: string }>,
  retention: number | null | undefined,
  topicsPolicy: TopicsPolicy,
): NewChannelSpec[] {
  checkCreation(stoa, user, params, retention);
  if (params.is_web_public && params.invite_only) throw badRequest('Invalid parameters');
  // Public channels always share their history; asking otherwise is a contradiction.
  if (!params.invite_only && params.history_public_to_subscribers === false) throw badRequest('Invalid parameters');
  if (params.folder_id !== undefined) accessChannelFolder(stoa, params.folder_id);
  const groupSettings: Partial<Record<ChannelGroupSetting, GroupSettingValue>> = {};
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const value = params[setting];
    if (value === undefined) continue;
    const parsed = parseGroupSettingValue(stoa, setting, CHANNEL_SETTINGS[setting].permission, value);
    const isNobody = parsed === stoa.groups.byName('role:nobody')!.id;
    if (setting.startsWith('can_delete_') && !isNobody && !mayChange(stoa, user, 'realm_can_set_delete_message_policy_group')) {
      throw insufficientPermission();
    }
    groupSettings[setting] = parsed;
  }
  return entries.map((entry) => ({
    name: entry.name,
    description: entry.description,
    inviteOnly: params.invite_only,
    isWebPublic: params.is_web_public,
    historyPublicToSubscribers: params.invite_only ? (params.history_public_to_subscribers ?? false) : true,
    messageRetentionDays: retention ?? null,
    topicsPolicy,
    folderId: params.folder_id ?? null,
    isDefault: params.is_default_stream,
    groupSettings,
  }));
}

export const subscribe = endpoint<SubscribeParams>({
  params: {
    properties: {
      subscriptions: SUBSCRIPTION_REQUESTS,
      principals: PRINCIPALS,
      authorization_errors_fatal: { type: 'boolean', default: true },
      announce: { type: 'boolean', default: false },
      ...NEW_CHANNEL_SETTINGS,
      send_new_subscription_messages: { type: 'boolean', default: true },
    },
    required: ['subscriptions'],
  },
  view: ({ stoa, user, params }) => subscribeAsAsked(stoa, user, params),
});

/** POST /users/me/subscriptions, also the `add` half of PATCH /users/me/subscriptions. */
function subscribeAsAsked(stoa: Stoa, user: UserRow, params: SubscribeParams) {
  refuseGuests(user);
  const specsFor = newChannelSettings(stoa, user, params);
  const users = resolvePrincipals(stoa, user, params.principals);

  // One entry per channel, in request order, with names checked and matched case-insensitively.
  const requested = new Map<string, { name: string; description: string }>();
  for (const entry of params.subscriptions) {
    const name = checkChannelName(entry.name);
    if (!requested.has(name.toLowerCase())) requested.set(name.toLowerCase(), { name, description: cleanDescription(entry.description ?? '') });
  }
  const existing: ChannelRow[] = [];
  const toCreate: Array<{ name: string; description: string }> = [];
  for (const entry of requested.values()) {
    const channel = stoa.channels.byName(entry.name);
    if (channel) existing.push(channel);
    else toCreate.push(entry);
  }
  const create = toCreate.length > 0 ? specsFor(toCreate) : [];

  // Existing channels need content access; subscribing others also needs permission to add.
  const authorized: ChannelRow[] = [];
  const unauthorized: string[] = [];
  for (const channel of existing) {
    if (!channel.is_archived && hasContentAccess(stoa, user, channel)) authorized.push(channel);
    else if (params.authorization_errors_fatal) throw badRequest(`Unable to access channel (${channel.name}).`);
    else unauthorized.push(channel.name);
  }
  if (actsOnOthers(user, users) && authorized.some((channel) => !canAddSubscribers(stoa, user, channel))) {
    throw insufficientPermission();
  }

  const result = write(stoa, () => {
    const subscribed = subscribeToChannels(stoa, user, { create, existing: authorized, users });
    const newlySubscribed = new Map(
      [...subscribed.subscribed].map(([userId, names]) => [userId, names.map((name) => stoa.channels.byName(name)!)]),
    );
    const messagesSent = postSubscriptionNotices(stoa, user, subscribed.created, newlySubscribed, {
      announce: params.announce,
      notifySubscribed: params.send_new_subscription_messages,
    });
    return { ...subscribed, messagesSent };
  });
  const byUser = (map: Map<number, string[]>) => Object.fromEntries([...map].map(([id, names]) => [String(id), names]));
  return {
    subscribed: byUser(result.subscribed),
    already_subscribed: byUser(result.alreadySubscribed),
    ...(params.authorization_errors_fatal ? {} : { unauthorized }),
    ...(params.send_new_subscription_messages ? { new_subscription_messages_sent: result.messagesSent } : {}),
  };
}

interface CreateChannelParams extends NewChannelParams {
  name: string;
  description: string;
  subscribers: number[];
  announce: boolean;
}

/**
 * POST /channels/create: a new channel, settings and all, with the users named as its first
 * subscribers (the creator only if named). A name already taken is refused, not joined.
 */
export const createChannelView = endpoint<CreateChannelParams>({
  params: {
    properties: {
      name: { type: 'string' },
      description: { type: 'string', maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH, default: '' },
      subscribers: { type: 'array', items: { type: 'integer' } },
      announce: { type: 'boolean', default: false },
      ...NEW_CHANNEL_SETTINGS,
    },
    required: ['name', 'subscribers'],
  },
  view: ({ stoa, user, params }) => {
    refuseGuests(user);
    const specsFor = newChannelSettings(stoa, user, params);
    const name = checkChannelName(params.name);
    if (stoa.channels.byName(name)) throw new ApiError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`, 409);
    const [spec] = specsFor([{ name, description: cleanDescription(params.description) }]);
    const users = params.subscribers.length === 0 ? [] : resolvePrincipals(stoa, user, params.subscribers);
    const channel = write(stoa, () => {
      const { created, subscribed } = subscribeToChannels(stoa, user, { create: [spec], existing: [], users });
      const newlySubscribed = new Map([...subscribed.keys()].map((userId) => [userId, created]));
      postSubscriptionNotices(stoa, user, created, newlySubscribed, { announce: params.announce, notifySubscribed: false });
      return created[0];
    });
    return { id: channel.id };
  },
});

interface UnsubscribeParams {
  subscriptions: string[];
  principals?: Array<number | string>;
}

export const unsubscribe = endpoint<UnsubscribeParams>({
  params: {
    properties: { subscriptions: { type: 'array', items: { type: 'string' } }, principals: PRINCIPALS },
    required: ['subscriptions'],
  },
  view: ({ stoa, user, params }) => unsubscribeAsAsked(stoa, user, params),
});

/** DELETE /users/me/subscriptions, also the `delete` half of PATCH /users/me/subscriptions. */
function unsubscribeAsAsked(stoa: Stoa, user: UserRow, params: UnsubscribeParams) {
  const users = resolvePrincipals(stoa, user, params.principals);
  const names = params.subscriptions.map(checkChannelName);
  const channels: ChannelRow[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const channel = stoa.channels.byName(name);
    // A channel the caller may not see is reported exactly like one that does not exist.
    if (channel && hasMetadataAccess(stoa, user, channel)) channels.push(channel);
    else missing.push(name);
  }
  if (unsubscribesOthers(user, users) && !canRemoveSubscribers(stoa, user, channels)) throw insufficientPermission();
  if (missing.length > 0) throw badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  const result = unsubscribeFromChannels(stoa, channels, users);
  return { removed: result.removed, not_removed: result.notRemoved };
}

/**
 * PATCH /users/me/subscriptions: the caller joins the channels of `add` (created if new, as by
 * POST with every other parameter at its default) and leaves those of `delete`, all or nothing.
 */
export const updateSubscriptions = endpoint<{ add: SubscribeParams['subscriptions']; delete: string[] }>({
  params: {
    properties: { add: { ...SUBSCRIPTION_REQUESTS, default: [] }, delete: { type: 'array', items: { type: 'string' }, default: [] } },
  },
  view: ({ stoa, user, params }) => {
    if (params.add.length === 0 && params.delete.length === 0) {
      throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
    }
    // An empty half is not asked for, so a guest (who may not join channels here) may still leave.
    return write(stoa, () => ({
      ...(params.add.length === 0
        ? { subscribed: {}, already_subscribed: {} }
        : subscribeAsAsked(stoa, user, {
            subscriptions: params.add,
            authorization_errors_fatal: true,
            announce: false,
            invite_only: false,
            is_web_public: false,
            is_default_stream: false,
            send_new_subscription_messages: true,
          })),
      ...(params.delete.length === 0 ? { removed: [], not_removed: [] } : unsubscribeAsAsked(stoa, user, { subscriptions: params.delete })),
    }));
  },
});

function byName(a: ChannelRow, b: ChannelRow): number {
  return a.name.localeCompare(b.name);
}

export const getSubscriptions = endpoint<{ include_subscribers: SubscriberListing }>({
  params: { properties: { include_subscribers: INCLUDE_SUBSCRIBERS } },
  view: ({ stoa, user, params }) => {
    const subscriptions = stoa.channels
      .subscriptionsOf(user.id)
      .filter((s) => s.active)
      .map((s) => ({ subscription: s, channel: stoa.channels.byId(s.stream_id)! }))
      .filter(({ channel }) => !channel.is_archived)
      .sort((a, b) => byName(a.channel, b.channel));
    return {
      subscriptions: subscriptions.map(({ channel, subscription }) =>
        presentSubscription(stoa, channel, subscription, params.include_subscribers),
      ),
    };
  },
});

/**
 * Someone asked about by ID, as Zulip's access_user_by_id (for reading) finds them: bots
 * (since level 458), deactivated people only where the endpoint allows them, which is checked
 * before access to them.
 */
function accessUserForReading(stoa: Stoa, viewer: UserRow, userId: number, allow: { deactivated: boolean }): UserRow {
  const target = stoa.users.byId(userId);
  if (!target || target.is_system_bot) throw badRequest('No such user');
  if (!allow.deactivated && !target.is_active) throw badRequest('User is deactivated');
  return checkCanReadUser(stoa, viewer, target);
}

export const getSubscriptionStatus = endpoint<{ user_id: number; stream_id: number }>({
  params: { properties: { user_id: { type: 'integer' }, stream_id: { type: 'integer' } }, required: ['user_id', 'stream_id'] },
  pathPatterns: { user_id: /^\d+$/, stream_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    const target = accessUserForReading(stoa, user, params.user_id, { deactivated: false });
    const channel = accessChannelById(stoa, user, params.stream_id, { need: 'content' });
    return { is_subscribed: isSubscribed(stoa, target, channel) };
  },
});

interface ListChannelsParams {
  include_public: boolean;
  include_web_public: boolean;
  include_subscribed: boolean;
  exclude_archived: boolean;
  include_all: boolean;
  include_all_active: boolean;
  include_default: boolean;
  include_owner_subscribed: boolean;
  include_can_access_content: boolean;
}

/** The channels GET /streams (and register's `streams`) returns for these filters. */
export function listChannels(stoa: Stoa, user: UserRow, filters: ListChannelsParams): ChannelRow[] {
  const candidates = stoa.channels.all().filter((c) => !(filters.exclude_archived && c.is_archived));
  let chosen: ChannelRow[];
  if (filters.include_all || filters.include_all_active) {
    chosen = candidates.filter((c) => hasMetadataAccess(stoa, user, c));
  } else {
    const owner = user.is_bot && user.bot_owner_id !== null ? stoa.users.byId(user.bot_owner_id) : undefined;
    chosen = candidates.filter(
      (c) =>
        (filters.include_can_access_content && hasContentAccess(stoa, user, c)) ||
        (filters.include_public && user.role !== Role.GUEST && !c.invite_only) ||
        (filters.include_web_public && c.is_web_public === 1) ||
        // Default channels are public, so only guests lack access to them.
        (filters.include_default && c.is_default === 1 && user.role !== Role.GUEST) ||
        (filters.include_subscribed && isSubscribed(stoa, user, c)) ||
        (filters.include_owner_subscribed && owner !== undefined && isSubscribed(stoa, owner, c)),
    );
  }
  return chosen.sort(byName);
}

export const getChannels = endpoint<ListChannelsParams>({
  params: {
    properties: {
      include_public: { type: 'boolean', default: true },
      include_web_public: { type: 'boolean', default: false },
      include_subscribed: { type: 'boolean', default: true },
      exclude_archived: { type: 'boolean', default: true },
      include_all: { type: 'boolean', default: false },
      include_all_active: { type: 'boolean', default: false },
      include_default: { type: 'boolean', default: false },
      include_owner_subscribed: { type: 'boolean', default: false },
      include_can_access_content: { type: 'boolean', default: false },
    },
  },
  view: ({ stoa, user, params }) => {
    // The deprecated alias is for administrators, as it always was.
    if (params.include_all_active && user.role > Role.ADMINISTRATOR) throw badRequest('User not authorized for this query');
    const channels = listChannels(stoa, user, params).map((channel) => ({
      ...presentChannel(stoa, channel),
      ...(params.include_default ? { is_default: channel.is_default === 1 } : {}),
    }));
    return { streams: channels };
  },
});

export const getChannel = endpoint<{ stream_id: number }>({
  params: { properties: { stream_id: { type: 'integer' } }, required: ['stream_id'] },
  pathPatterns: { stream_id: /^\d+$/ },
  view: ({ stoa, user, params }) => ({
    stream: presentChannel(stoa, accessChannelById(stoa, user, params.stream_id, { need: 'metadata', allowArchived: true })),
  }),
});

/**
 * GET /users/{user_id}/channels: the channels the user (a bot too) is subscribed to, of those
 * whose subscribers the caller may see.
 */
export const getUserChannels = endpoint<{ user_id: number }>({
  params: { properties: { user_id: { type: 'integer' } }, required: ['user_id'] },
  pathPatterns: { user_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    // Zulip reaches the person as for their subscription status: a deactivated one is refused.
    const target = accessUserForReading(stoa, user, params.user_id, { deactivated: false });
    const ids = stoa.channels
      .subscriptionsOf(target.id)
      .filter((s) => s.active)
      .map((s) => stoa.channels.byId(s.stream_id)!)
      .filter((channel) => hasMetadataAccess(stoa, user, channel))
      .map((channel) => channel.id);
    return { subscribed_channel_ids: ids };
  },
});

export const getChannelId = endpoint<{ stream: string }>({
  params: { properties: { stream: { type: 'string' } }, required: ['stream'] },
  view: ({ stoa, user, params }) => ({ stream_id: accessChannelByName(stoa, user, params.stream).id }),
});

export const getChannelMembers = endpoint<{ stream_id: number }>({
  params: { properties: { stream_id: { type: 'integer' } }, required: ['stream_id'] },
  pathPatterns: { stream_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    // Whoever may see the channel may see who is in it (guests see only channels they are in).
    const channel = accessChannelById(stoa, user, params.stream_id, { need: 'metadata', allowArchived: true });
    return { subscribers: stoa.channels.subscriberIds(channel.recipient_id) };
  },
});

/**
 * The local part Zulip gives a channel's address: runs of characters other than letters,
 * digits and underscores become a hyphen, then the name is made plain lowercase ASCII. A name
 * that would lose letters that way (one in another script) is left out of the address.
 */
function emailNamePart(name: string): string {
  const hyphenated = name.replace(/[^\p{L}\p{N}_]+/gu, '-');
  const slug = hyphenated
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '')
    .replace(/[^\w\s-]/g, '')
    .toLowerCase()
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return slug.length === hyphenated.length ? slug : '';
}

/**
 * GET /streams/{stream_id}/email_address: the address that would post to the channel by
 * email, in Zulip's form, as the email gateway or as `sender_id` (the caller or a bot they may
 * administer). Stoa receives no email, so nothing arrives there.
 */
export const getChannelEmailAddress = endpoint<{ stream_id: number; sender_id?: number }>({
  params: {
    properties: { stream_id: { type: 'integer' }, sender_id: { type: 'integer', minimum: 0 } },
    required: ['stream_id'],
  },
  pathPatterns: { stream_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    const channel = accessChannelById(stoa, user, params.stream_id, { need: 'content' });
    // The address posts as the caller, so only someone who may post there gets it.
    checkCanPost(stoa, user, channel);
    let senderId: number | null = null;
    if (params.sender_id !== undefined && params.sender_id !== user.id) senderId = accessBot(stoa, user, params.sender_id).id;
    else if (params.sender_id === user.id) senderId = user.id;
    const token = channelEmailToken(stoa, channel, user, senderId);
    const name = emailNamePart(channel.name);
    const host = new URL(stoa.site).hostname;
    return { email: `${name === '' ? '' : `${name}.`}${token}.show-sender@${host}` };
  },
});
