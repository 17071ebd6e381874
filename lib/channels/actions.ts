import { unixSeconds } from '../clock';
import type { EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import { groupForValue, groupSettingValue, type GroupSettingValue } from '../groups/settings';
import { renderMarkdown } from '../markdown/render';
import type { Stoa } from '../stoa';
import { Role, type UserRow } from '../users/queries';
import { CHANNEL_SETTINGS, hasMetadataAccess } from './access';
import { presentChannel, presentSubscription } from './present';
import { CHANNEL_GROUP_SETTINGS, type ChannelGroupSetting, type ChannelRow, type TopicsPolicy } from './queries';

/** The colors new subscriptions get, in order of preference (Zulip's palette). */
export const SUBSCRIPTION_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

/** The first palette color the user does not use yet; once all are used, one by channel. */
function pickColor(used: Set<string>, channelId: number): string {
  return SUBSCRIPTION_COLORS.find((color) => !used.has(color)) ?? SUBSCRIPTION_COLORS[channelId % SUBSCRIPTION_COLORS.length];
}

export interface NewChannelSpec {
  name: string;
  description: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  messageRetentionDays: number | null;
  topicsPolicy: TopicsPolicy;
  isDefault: boolean;
  /** Parsed values for the settings the creator chose; the rest get their defaults. */
  groupSettings: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
}

/** The active users who may see the channel now, and so hear of changes to it. */
export function channelAudience(stoa: Stoa, channel: ChannelRow): number[] {
  return stoa.users
    .activeIds()
    .filter((id) => hasMetadataAccess(stoa, stoa.users.byId(id)!, channel));
}

function announceDefaultChannels(stoa: Stoa): void {
  const nonGuests = stoa.users.activeIds().filter((id) => stoa.users.byId(id)!.role !== Role.GUEST);
  sendEvent(stoa, { type: 'default_streams', default_streams: stoa.channels.defaultIds() }, nonGuests);
}

/** Creates a channel (no subscribers yet) and tells everyone who may see it. Call inside `write`. */
export function createChannel(stoa: Stoa, creator: UserRow, spec: NewChannelSpec): ChannelRow {
  const now = unixSeconds(stoa.clock);
  const settingGroups = {} as Record<`${ChannelGroupSetting}_id`, number>;
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const chosen = spec.groupSettings[setting];
    const fallback = CHANNEL_SETTINGS[setting].default;
    const value: GroupSettingValue =
      chosen ??
      (fallback === 'creator'
        ? { direct_members: [creator.id], direct_subgroups: [] }
        : stoa.groups.byName(fallback)!.id);
    settingGroups[`${setting}_id`] = groupForValue(stoa, value, now);
  }
  const id = stoa.channels.insert({
    name: spec.name,
    description: spec.description,
    rendered_description: renderMarkdown(spec.description),
    date_created: now,
    creator_id: creator.id,
    invite_only: spec.inviteOnly ? 1 : 0,
    is_web_public: spec.isWebPublic ? 1 : 0,
    history_public_to_subscribers: spec.historyPublicToSubscribers ? 1 : 0,
    message_retention_days: spec.messageRetentionDays,
    topics_policy: spec.topicsPolicy,
    folder_id: null,
    is_default: spec.isDefault ? 1 : 0,
    ...settingGroups,
  });
  const channel = stoa.channels.byId(id)!;
  sendEvent(stoa, { type: 'stream', op: 'create', streams: [presentChannel(stoa, channel)] }, channelAudience(stoa, channel));
  if (spec.isDefault) announceDefaultChannels(stoa);
  return channel;
}

/** A subscription event shaped for one queue: with subscribers only if the client asked. */
function subscriptionAdd(stoa: Stoa, userId: number, channels: ChannelRow[]) {
  return (queue: EventQueue) => ({
    type: 'subscription',
    op: 'add',
    subscriptions: channels.map((channel) =>
      presentSubscription(stoa, channel, stoa.channels.subscription(userId, channel.recipient_id)!, queue.settings.includeSubscribers),
    ),
  });
}

export interface SubscribeResult {
  /** Channel names by user ID, for users who were not subscribed before. */
  subscribed: Map<number, string[]>;
  alreadySubscribed: Map<number, string[]>;
}

/**
 * Subscribes users to channels. Users who could not see a channel before learn of it, each
 * new subscriber gets their subscriptions, and everyone else who may see a channel learns its
 * new subscribers. Call inside `write`.
 */
export function subscribeUsers(stoa: Stoa, channels: readonly ChannelRow[], users: readonly UserRow[]): SubscribeResult {
  const result: SubscribeResult = { subscribed: new Map(), alreadySubscribed: new Map() };
  const added = new Map<number, UserRow[]>(); // channel ID -> users newly subscribed
  for (const user of users) {
    const used = new Set(stoa.channels.colorsOf(user.id));
    const mine: ChannelRow[] = [];
    for (const channel of channels) {
      const existing = stoa.channels.subscription(user.id, channel.recipient_id);
      if (existing?.active) {
        result.alreadySubscribed.set(user.id, [...(result.alreadySubscribed.get(user.id) ?? []), channel.name]);
        continue;
      }
      if (!hasMetadataAccess(stoa, user, channel)) {
        sendEvent(stoa, { type: 'stream', op: 'create', streams: [presentChannel(stoa, channel)] }, [user.id]);
      }
      // A returning subscriber keeps the color (and settings) they had.
      const color = existing?.color ?? pickColor(used, channel.id);
      used.add(color);
      stoa.channels.subscribe(user.id, channel.recipient_id, color);
      mine.push(channel);
      added.set(channel.id, [...(added.get(channel.id) ?? []), user]);
      result.subscribed.set(user.id, [...(result.subscribed.get(user.id) ?? []), channel.name]);
    }
    if (mine.length > 0) sendEvent(stoa, subscriptionAdd(stoa, user.id, mine), [user.id]);
  }
  for (const channel of channels) {
    const newcomers = (added.get(channel.id) ?? []).map((u) => u.id);
    if (newcomers.length === 0) continue;
    const peers = channelAudience(stoa, channel).filter((id) => !newcomers.includes(id));
    sendEvent(stoa, { type: 'subscription', op: 'peer_add', stream_ids: [channel.id], user_ids: newcomers }, peers);
  }
  return result;
}

export interface UnsubscribeResult {
  removed: string[];
  notRemoved: string[];
}

/**
 * Unsubscribes users from channels, telling them, the channel's other viewers, and (with a
 * stream delete) anyone who can no longer see a private channel at all. Call inside `write`.
 */
export function unsubscribeUsers(stoa: Stoa, channels: readonly ChannelRow[], users: readonly UserRow[]): UnsubscribeResult {
  const result: UnsubscribeResult = { removed: [], notRemoved: [] };
  for (const channel of channels) {
    const leaving: number[] = [];
    for (const user of users) {
      if (stoa.channels.subscription(user.id, channel.recipient_id)?.active !== 1) {
        result.notRemoved.push(channel.name);
        continue;
      }
      stoa.channels.unsubscribe(user.id, channel.recipient_id);
      leaving.push(user.id);
      result.removed.push(channel.name);
      sendEvent(stoa, { type: 'subscription', op: 'remove', subscriptions: [{ stream_id: channel.id, name: channel.name }] }, [user.id]);
      if (!hasMetadataAccess(stoa, user, channel)) {
        sendEvent(stoa, { type: 'stream', op: 'delete', stream_ids: [channel.id], streams: [{ stream_id: channel.id }] }, [user.id]);
      }
    }
    if (leaving.length > 0) {
      const peers = channelAudience(stoa, channel).filter((id) => !leaving.includes(id));
      sendEvent(stoa, { type: 'subscription', op: 'peer_remove', stream_ids: [channel.id], user_ids: leaving }, peers);
    }
  }
  return result;
}

/**
 * POST /users/me/subscriptions in one transaction: creates the new channels, then subscribes
 * the users to them and to the existing ones.
 */
export function subscribeToChannels(
  stoa: Stoa,
  creator: UserRow,
  request: { create: readonly NewChannelSpec[]; existing: readonly ChannelRow[]; users: readonly UserRow[] },
): SubscribeResult & { created: ChannelRow[] } {
  return write(stoa, () => {
    const created = request.create.map((spec) => createChannel(stoa, creator, spec));
    return { ...subscribeUsers(stoa, [...created, ...request.existing], request.users), created };
  });
}

/** DELETE /users/me/subscriptions in one transaction. */
export function unsubscribeFromChannels(stoa: Stoa, channels: readonly ChannelRow[], users: readonly UserRow[]): UnsubscribeResult {
  return write(stoa, () => unsubscribeUsers(stoa, channels, users));
}

/**
 * A role change can change which channels a user may see (guests see fewer, administrators
 * more): channels that vanish are deleted from their clients, channels that appear are
 * created there along with their current subscribers. Call inside `write`.
 */
export function announceChannelAccessChange(stoa: Stoa, before: UserRow, after: UserRow): void {
  for (const channel of stoa.channels.all()) {
    const could = hasMetadataAccess(stoa, before, channel);
    const can = hasMetadataAccess(stoa, after, channel);
    if (could && !can) {
      sendEvent(stoa, { type: 'stream', op: 'delete', stream_ids: [channel.id], streams: [{ stream_id: channel.id }] }, [after.id]);
    } else if (can && !could) {
      sendEvent(stoa, { type: 'stream', op: 'create', streams: [presentChannel(stoa, channel)] }, [after.id]);
      const subscribers = stoa.channels.subscriberIds(channel.recipient_id);
      if (subscribers.length > 0) {
        sendEvent(stoa, { type: 'subscription', op: 'peer_add', stream_ids: [channel.id], user_ids: subscribers }, [after.id]);
      }
    }
  }
}

/**
 * Subscriber lists show active users only: deactivating a user takes them out of the lists
 * of every channel they are in (and reactivating puts them back), for everyone who sees those
 * channels. Call inside `write`, after the user's activity changed.
 */
export function announceSubscriberActivity(stoa: Stoa, userId: number, active: boolean): void {
  for (const { stream_id: channelId, active: subscribed } of stoa.channels.subscriptionsOf(userId)) {
    if (!subscribed) continue;
    const channel = stoa.channels.byId(channelId)!;
    const peers = channelAudience(stoa, channel).filter((id) => id !== userId);
    sendEvent(stoa, { type: 'subscription', op: active ? 'peer_add' : 'peer_remove', stream_ids: [channel.id], user_ids: [userId] }, peers);
  }
}

/**
 * Clients drop a deactivated user from every group, ad-hoc ones included; when the user comes
 * back, each channel setting whose ad-hoc group names them is sent again. Call inside `write`.
 */
export function announceReturningSettingHolder(stoa: Stoa, userId: number): void {
  for (const channel of stoa.channels.all()) {
    for (const setting of CHANNEL_GROUP_SETTINGS) {
      const groupId = channel[`${setting}_id`];
      const group = stoa.groups.byId(groupId)!;
      if (group.name !== null || !stoa.groups.directMemberIds(groupId).includes(userId)) continue;
      const event = { type: 'stream', op: 'update', stream_id: channel.id, name: channel.name, property: setting, value: groupSettingValue(stoa, groupId) };
      sendEvent(stoa, event, channelAudience(stoa, channel));
    }
  }
}
