import {
  GROUP_SETTING_UPDATE_SCHEMA,
  parseGroupSettingChange,
  type GroupSettingChange,
  type GroupSettingValue,
} from '../groups/settings';
import { endpoint } from '../http/endpoint';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../messages/topics';
import { ApiError, badRequest, insufficientPermission } from '../http/errors';
import { userHasRealmPermission, webPublicChannelsEnabled } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { Role, type UserRow } from '../users/queries';
import {
  accessChannelById,
  administersChannel,
  CHANNEL_SETTINGS,
  hasContentAccess,
  invalidChannelId,
  isSubscribed,
} from './access';
import {
  archiveChannel,
  changeSubscriptionProperties,
  updateChannel,
  type ChannelChanges,
  type SubscriptionProperty,
} from './actions';
import { checkChannelName, cleanDescription, MAX_CHANNEL_DESCRIPTION_LENGTH } from './names';
import {
  CHANNEL_GROUP_SETTINGS,
  SUBSCRIPTION_SETTINGS,
  type ChannelGroupSetting,
  type ChannelRow,
  type TopicsPolicy,
} from './queries';
import { accessChannelFolder } from './folders';
import { mayChange, parseRetention, TOPICS_POLICIES } from './views';
import { requireAdministrator } from '../users/access';


function contentAccessRequired(): ApiError {
  return badRequest('Channel content access is required.');
}

/**
 * A channel the user may administer: administrators and channel administrators may; someone
 * who can read it is told they lack permission; anyone else learns nothing about it.
 */
function accessChannelToAdminister(stoa: Stoa, user: UserRow, channelId: number): ChannelRow {
  const channel = stoa.channels.byId(channelId);
  if (!channel) throw invalidChannelId();
  if (administersChannel(stoa, user, channel)) return channel;
  if (hasContentAccess(stoa, user, channel)) {
    // Zulip 10.2 has a CANNOT_ADMINISTER_CHANNEL code, but this refusal does not use it: BAD_REQUEST.
    throw badRequest('You do not have permission to administer this channel.');
  }
  throw invalidChannelId();
}

interface UpdateChannelParams extends Partial<Record<ChannelGroupSetting, GroupSettingChange>> {
  stream_id: number;
  description?: string;
  new_name?: string;
  is_private?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  is_default_stream?: boolean;
  message_retention_days?: number | string;
  is_archived?: boolean;
  folder_id?: number | null;
  topics_policy?: TopicsPolicy;
}

/** Checks the privacy a request asks for, against the rules of combination and of permission. */
function checkPrivacy(stoa: Stoa, user: UserRow, channel: ChannelRow, params: UpdateChannelParams): ChannelChanges['privacy'] {
  const asked = params.is_private !== undefined || params.is_web_public !== undefined || params.history_public_to_subscribers !== undefined;
  const isPrivate = params.is_private ?? channel.invite_only === 1;
  const isWebPublic = params.is_web_public ?? channel.is_web_public === 1;
  const historyPublic =
    params.history_public_to_subscribers ?? (params.is_private !== undefined ? !params.is_private : channel.history_public_to_subscribers === 1);
  const isDefault = params.is_default_stream ?? channel.is_default === 1;
  // Public and web-public channels always share their history, and web-public ones are public.
  if (isWebPublic && (!historyPublic || isPrivate)) throw badRequest('Invalid parameters');
  if (!isPrivate && !historyPublic) throw badRequest('Invalid parameters');
  if (isPrivate && isDefault) throw badRequest('A default channel cannot be private.');
  if (!asked) return undefined;
  if (params.is_private !== undefined) {
    // A private channel's privacy is changed only by someone in it.
    const inside = channel.invite_only ? isSubscribed(stoa, user, channel) : hasContentAccess(stoa, user, channel);
    if (!inside) throw contentAccessRequired();
    const key = params.is_private ? 'realm_can_create_private_channel_group' : 'realm_can_create_public_channel_group';
    if (!userHasRealmPermission(stoa, user, key)) throw insufficientPermission();
  }
  if (params.is_web_public) {
    if (!webPublicChannelsEnabled(stoa)) throw badRequest('Web-public channels are not enabled.');
    if (!userHasRealmPermission(stoa, user, 'realm_can_create_web_public_channel_group')) throw insufficientPermission();
  }
  return { inviteOnly: isPrivate, isWebPublic, historyPublicToSubscribers: historyPublic };
}

/** Parses each `{new, old}` group-setting change, dropping the ones that change nothing. */
function checkGroupSettings(stoa: Stoa, user: UserRow, channel: ChannelRow, params: UpdateChannelParams) {
  const changes: Partial<Record<ChannelGroupSetting, GroupSettingValue>> = {};
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const update = params[setting];
    if (update === undefined) continue;
    const value = parseGroupSettingChange(stoa, setting, CHANNEL_SETTINGS[setting].permission, update, channel[`${setting}_id`]);
    if (value === undefined) continue;
    if ((setting === 'can_add_subscribers_group' || setting === 'can_subscribe_group') && !hasContentAccess(stoa, user, channel)) {
      throw contentAccessRequired();
    }
    if (setting.startsWith('can_delete_') && !mayChange(stoa, user, 'realm_can_set_delete_message_policy_group')) {
      throw insufficientPermission();
    }
    changes[setting] = value;
  }
  return changes;
}

export const updateChannelView = endpoint<UpdateChannelParams>({
  params: {
    properties: {
      stream_id: { type: 'integer' },
      description: { type: 'string', maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH },
      new_name: { type: 'string' },
      is_private: { type: 'boolean' },
      is_web_public: { type: 'boolean' },
      history_public_to_subscribers: { type: 'boolean' },
      is_default_stream: { type: 'boolean' },
      message_retention_days: { type: ['integer', 'string'] },
      is_archived: { type: 'boolean' },
      folder_id: { type: ['integer', 'null'] },
      topics_policy: { type: 'string', enum: [...TOPICS_POLICIES] },
      ...Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((s) => [s, GROUP_SETTING_UPDATE_SCHEMA])),
    },
    required: ['stream_id'],
  },
  pathPatterns: { stream_id: /^\d+$/ },
  // Everything is checked before anything changes, so a refused request changes nothing.
  view: ({ stoa, user, params }) => {
    const channel = accessChannelToAdminister(stoa, user, params.stream_id);
    const changes: ChannelChanges = { privacy: checkPrivacy(stoa, user, channel, params) };
    if (params.topics_policy !== undefined) {
      if (!mayChange(stoa, user, 'realm_can_set_topics_policy_group')) throw insufficientPermission();
      // Like Zulip, the creation notice in its "channel events" topic counts as a named topic.
      if (params.topics_policy === 'empty_topic_only' && stoa.messages.hasNamedTopic(channel.recipient_id)) {
        throw badRequest(
          `To enable this configuration, all messages in this channel must be in the ${EMPTY_TOPIC_DISPLAY_NAME} topic. Consider renaming or deleting other topics.`,
        );
      }
      changes.topicsPolicy = params.topics_policy;
    }
    if (params.is_default_stream !== undefined) {
      if (user.role > Role.ADMINISTRATOR) throw badRequest('You do not have permission to change default channels.');
      changes.isDefault = params.is_default_stream;
    }
    if (params.message_retention_days !== undefined) {
      if (user.role !== Role.OWNER) throw new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
      changes.messageRetentionDays = parseRetention(params.message_retention_days);
    }
    if (params.is_archived === false) {
      if (!channel.is_archived) throw badRequest('Channel is not currently deactivated');
      if (channel.invite_only && stoa.channels.subscriptionCount(channel.recipient_id) === 0) {
        throw badRequest('Channel is private and have no subscribers');
      }
      changes.unarchive = true;
    }
    if (params.description !== undefined) changes.description = cleanDescription(params.description);
    if (params.new_name !== undefined) {
      const name = checkChannelName(params.new_name);
      if (name === channel.name) throw badRequest('Channel already has that name.');
      const holder = stoa.channels.byName(name);
      if (holder && holder.id !== channel.id) throw badRequest('Channel name already in use.');
      changes.name = name;
    }
    if (params.folder_id !== undefined) {
      if (params.folder_id !== null) accessChannelFolder(stoa, params.folder_id);
      changes.folderId = params.folder_id;
    }
    changes.groupSettings = checkGroupSettings(stoa, user, channel, params);
    updateChannel(stoa, channel.id, changes);
    return {};
  },
});

export const archiveChannelView = endpoint<{ stream_id: number }>({
  params: { properties: { stream_id: { type: 'integer' } }, required: ['stream_id'] },
  pathPatterns: { stream_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    const channel = accessChannelToAdminister(stoa, user, params.stream_id);
    if (channel.is_archived) throw badRequest('Channel is already deactivated');
    archiveChannel(stoa, channel.id);
    return {};
  },
});

const DEFAULT_CHANNEL_PARAMS = { properties: { stream_id: { type: 'integer' } }, required: ['stream_id'] } as const;

/**
 * POST /default_streams: administrators add a channel new users join. It must be one the
 * caller can read, and public: a private channel would hand its content to every newcomer.
 */
export const addDefaultChannelView = endpoint<{ stream_id: number }>({
  params: DEFAULT_CHANNEL_PARAMS,
  authorize: requireAdministrator,
  view: ({ stoa, user, params }) => {
    const channel = accessChannelById(stoa, user, params.stream_id, { need: 'content' });
    if (channel.invite_only) throw badRequest('Private channels cannot be made default.');
    updateChannel(stoa, channel.id, { isDefault: true });
    return {};
  },
});

/** DELETE /default_streams: seeing the channel is enough to take it off the list. */
export const removeDefaultChannelView = endpoint<{ stream_id: number }>({
  params: DEFAULT_CHANNEL_PARAMS,
  authorize: requireAdministrator,
  view: ({ stoa, user, params }) => {
    const channel = accessChannelById(stoa, user, params.stream_id, { need: 'metadata' });
    updateChannel(stoa, channel.id, { isDefault: false });
    return {};
  },
});

/** The settings, and the legacy in_home_view (the opposite of is_muted). */
const SUBSCRIPTION_PROPERTIES: readonly SubscriptionProperty[] = [...SUBSCRIPTION_SETTINGS, 'in_home_view'];

/** One requested change of a personal subscription setting, checked in Zulip's order. */
function checkSubscriptionChange(stoa: Stoa, user: UserRow, item: { stream_id: number; property: string; value: unknown }, index: number) {
  const property = item.property as SubscriptionProperty;
  if (!SUBSCRIPTION_PROPERTIES.includes(property)) throw badRequest(`Unknown subscription property: ${item.property}`);
  if (property === 'color') {
    if (typeof item.value !== 'string' || !/^#[0-9a-fA-F]{3,6}$/.test(item.value)) {
      throw badRequest(`Invalid subscription_data[${index}]: Value error, color is not a valid hex color code`);
    }
  } else if (typeof item.value !== 'boolean') {
    throw badRequest(`${property} is not a boolean`);
  }
  const channel = stoa.channels.byId(item.stream_id);
  if (!channel || channel.is_archived || !hasContentAccess(stoa, user, channel)) throw invalidChannelId();
  if (!isSubscribed(stoa, user, channel)) throw badRequest(`Not subscribed to channel ID ${item.stream_id}`);
  return { channel, property, value: item.value };
}

/** PATCH /users/me/subscriptions/{stream_id}: one setting of one subscription. */
export const updateSubscriptionPropertyView = endpoint<{ stream_id: number; property: string; value: boolean | string }>({
  params: {
    properties: { stream_id: { type: 'integer' }, property: { type: 'string' }, value: { type: ['boolean', 'string'] } },
    required: ['stream_id', 'property', 'value'],
  },
  pathPatterns: { stream_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    changeSubscriptionProperties(stoa, user, [checkSubscriptionChange(stoa, user, params, 0)]);
    return {};
  },
});

export const updateSubscriptionProperties = endpoint<{
  subscription_data: Array<{ stream_id: number; property: string; value: boolean | string }>;
}>({
  params: {
    properties: {
      subscription_data: {
        type: 'array',
        items: {
          type: 'object',
          properties: { stream_id: { type: 'integer' }, property: { type: 'string' }, value: { type: ['boolean', 'string'] } },
          required: ['stream_id', 'property', 'value'],
          additionalProperties: false,
        },
      },
    },
    required: ['subscription_data'],
  },
  view: ({ stoa, user, params }) => {
    const changes = params.subscription_data.map((item, index) => checkSubscriptionChange(stoa, user, item, index));
    changeSubscriptionProperties(stoa, user, changes);
    return {};
  },
});
