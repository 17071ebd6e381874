import { randomBytes } from 'node:crypto';
import { unixSeconds } from '../clock';
import { perShape, type EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import { dropArchivedChannelFromGroups } from '../default-stream-groups/actions';
import { groupForValue, groupSettingValue, type GroupSettingValue } from '../groups/settings';
import { markdownContextFor } from '../markdown/context';
import { renderMarkdown } from '../markdown/render';
import type { Stoa } from '../stoa';
import { announceUserAccessChanges, snapshotUserAccess } from '../users/access-events';
import { Role, type UserRow } from '../users/queries';
import { CHANNEL_SETTINGS, hasMetadataAccess } from './access';
import { presentChannel, presentSubscription } from './present';
import {
  CHANNEL_GROUP_SETTINGS,
  SUBSCRIPTION_SETTINGS,
  type ChannelGroupSetting,
  type ChannelRow,
  type TopicsPolicy,
} from './queries';

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
  folderId: number | null;
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
    rendered_description: renderMarkdown(spec.description, markdownContextFor(stoa)).html,
    date_created: now,
    creator_id: creator.id,
    invite_only: spec.inviteOnly ? 1 : 0,
    is_web_public: spec.isWebPublic ? 1 : 0,
    history_public_to_subscribers: spec.historyPublicToSubscribers ? 1 : 0,
    message_retention_days: spec.messageRetentionDays,
    topics_policy: spec.topicsPolicy,
    folder_id: spec.folderId,
    is_default: spec.isDefault ? 1 : 0,
    ...settingGroups,
  });
  const channel = stoa.channels.byId(id)!;
  sendEvent(stoa, { type: 'stream', op: 'create', streams: [presentChannel(stoa, channel)] }, channelAudience(stoa, channel));
  if (spec.isDefault) announceDefaultChannels(stoa);
  return channel;
}

function streamDelete(channel: ChannelRow) {
  return { type: 'stream', op: 'delete', stream_ids: [channel.id], streams: [{ stream_id: channel.id }] };
}

/**
 * Takes a channel from users who may no longer see it. A left subscription they kept is
 * forgotten too: should they see the channel again, clients (which learn of it by a plain
 * stream create) and a fresh registration then agree that they never joined it.
 */
function withdrawChannel(stoa: Stoa, channel: ChannelRow, userIds: readonly number[]): void {
  if (userIds.length === 0) return;
  for (const userId of userIds) stoa.channels.forgetLeftSubscription(userId, channel.recipient_id);
  sendEvent(stoa, streamDelete(channel), userIds);
}

/** A subscription event shaped for one queue: with subscribers only if the client asked. */
function subscriptionAdd(stoa: Stoa, userId: number, channels: ChannelRow[]) {
  return perShape(
    (queue) => String(queue.settings.includeSubscribers),
    (queue) => ({
      type: 'subscription',
      op: 'add',
      subscriptions: channels.map((channel) =>
        presentSubscription(stoa, channel, stoa.channels.subscription(userId, channel.recipient_id)!, queue.settings.includeSubscribers),
      ),
    }),
  );
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
  const accessBefore = snapshotUserAccess(stoa, () => peopleAround(stoa, channels, users));
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
  announceUserAccessChanges(stoa, accessBefore);
  return result;
}

/**
 * Whose sight of other people (can_access_all_users_group) a change to these channels'
 * subscriptions may change: the users changing and the channels' subscribers.
 */
function peopleAround(stoa: Stoa, channels: readonly ChannelRow[], users: readonly UserRow[]): number[] {
  return [...users.map((user) => user.id), ...channels.flatMap((channel) => stoa.channels.subscriberIds(channel.recipient_id))];
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
  const accessBefore = snapshotUserAccess(stoa, () => peopleAround(stoa, channels, users));
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
      if (!hasMetadataAccess(stoa, user, channel)) withdrawChannel(stoa, channel, [user.id]);
    }
    if (leaving.length > 0) {
      const peers = channelAudience(stoa, channel).filter((id) => !leaving.includes(id));
      sendEvent(stoa, { type: 'subscription', op: 'peer_remove', stream_ids: [channel.id], user_ids: leaving }, peers);
    }
  }
  announceUserAccessChanges(stoa, accessBefore);
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
 * Shows a channel to users who could not see it: created for them, then its subscribers by
 * peer_add. Clients count subscribers by those events, so the channel arrives counting none.
 */
function revealChannel(stoa: Stoa, channel: ChannelRow, userIds: readonly number[]): void {
  if (userIds.length === 0) return;
  sendEvent(stoa, { type: 'stream', op: 'create', streams: [{ ...presentChannel(stoa, channel), subscriber_count: 0 }] }, userIds);
  const subscribers = stoa.channels.subscriberIds(channel.recipient_id);
  if (subscribers.length > 0) sendEvent(stoa, { type: 'subscription', op: 'peer_add', stream_ids: [channel.id], user_ids: subscribers }, userIds);
}

/** The IDs of the channels a user may see now. */
export function visibleChannelIds(stoa: Stoa, user: UserRow): Set<number> {
  return new Set(stoa.channels.all().filter((c) => hasMetadataAccess(stoa, user, c)).map((c) => c.id));
}

/**
 * A role change can change which channels a user may see (guests see fewer, administrators
 * more, group settings follow roles): channels that vanish are withdrawn from their clients,
 * channels that appear are created there along with their current subscribers. `before` is
 * what visibleChannelIds gave before the change. Call inside `write`.
 */
export function announceChannelAccessChange(stoa: Stoa, wasGuest: boolean, before: ReadonlySet<number>, after: UserRow): void {
  // Guests are not told which channels are default ones.
  if (wasGuest !== (after.role === Role.GUEST)) {
    const defaults = after.role === Role.GUEST ? [] : stoa.channels.defaultIds();
    sendEvent(stoa, { type: 'default_streams', default_streams: defaults }, [after.id]);
  }
  const now = visibleChannelIds(stoa, after);
  for (const channel of stoa.channels.all()) {
    if (before.has(channel.id) && !now.has(channel.id)) {
      withdrawChannel(stoa, channel, [after.id]);
    } else if (now.has(channel.id) && !before.has(channel.id)) {
      revealChannel(stoa, channel, [after.id]);
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

export type SubscriptionProperty = (typeof SUBSCRIPTION_SETTINGS)[number] | 'in_home_view';

/** Changes personal subscription settings, all in one transaction; each change tells the user's clients. */
export function changeSubscriptionProperties(
  stoa: Stoa,
  user: UserRow,
  changes: ReadonlyArray<{ channel: ChannelRow; property: SubscriptionProperty; value: boolean | string }>,
): void {
  write(stoa, () => {
    for (const { channel, property, value } of changes) {
      const recipient = channel.recipient_id;
      const update = (name: string, v: boolean | string) =>
        sendEvent(stoa, { type: 'subscription', op: 'update', stream_id: channel.id, property: name, value: v }, [user.id]);
      if (property === 'color') {
        stoa.channels.setSubscriptionProperty(user.id, recipient, 'color', value as string);
        update('color', value);
      } else if (property === 'is_muted' || property === 'in_home_view') {
        // Two names for one setting: clients hear of both, the legacy one first.
        const muted = property === 'is_muted' ? (value as boolean) : !(value as boolean);
        stoa.channels.setSubscriptionProperty(user.id, recipient, 'is_muted', muted ? 1 : 0);
        update('in_home_view', !muted);
        update('is_muted', muted);
      } else {
        stoa.channels.setSubscriptionProperty(user.id, recipient, property, value ? 1 : 0);
        update(property, value);
      }
    }
  });
}

/** What PATCH /streams/{id} changes, already checked; absent fields stay as they are. */
export interface ChannelChanges {
  name?: string;
  description?: string;
  /** The three privacy fields change together, as clients learn of them together. */
  privacy?: { inviteOnly: boolean; isWebPublic: boolean; historyPublicToSubscribers: boolean };
  isDefault?: boolean;
  messageRetentionDays?: number | null;
  unarchive?: boolean;
  folderId?: number | null;
  topicsPolicy?: TopicsPolicy;
  groupSettings?: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
}

function streamUpdate(channel: ChannelRow, property: string, value: unknown, extra: Record<string, unknown> = {}) {
  return { type: 'stream', op: 'update', stream_id: channel.id, name: channel.name, property, value, ...extra };
}

/**
 * Brings a channel's first message (where clients show its history starting) up to date after
 * messages arrive, leave or move, and tells those who may see the channel when it changed.
 */
export function refreshFirstMessage(stoa: Stoa, channel: ChannelRow): void {
  const first = stoa.messages.firstIn(channel.recipient_id) ?? null;
  if (first === channel.first_message_id) return;
  stoa.channels.update(channel.id, { first_message_id: first });
  sendEvent(stoa, streamUpdate(channel, 'first_message_id', first), channelAudience(stoa, channel));
}

/**
 * Tells each user what a change of a channel means for them: users who can now see it learn
 * of it (and its subscribers), users who no longer can lose it, and the rest get the updates.
 */
function announceChannelChange(stoa: Stoa, channel: ChannelRow, before: ReadonlySet<number>, updates: object[]): void {
  const after = new Set(channelAudience(stoa, channel));
  const stayed = [...after].filter((id) => before.has(id));
  for (const update of updates) sendEvent(stoa, update as { type: string }, stayed);
  revealChannel(stoa, channel, [...after].filter((id) => !before.has(id)));
  const lost = [...before].filter((id) => !after.has(id));
  withdrawChannel(stoa, channel, lost);
}

/**
 * Archived channels reach only clients that declared `archived_channels` as such; older
 * clients see them vanish, and come back (as a subscription for subscribers) when unarchived.
 */
function announceArchiving(stoa: Stoa, channel: ChannelRow, audience: readonly number[], archived: boolean): void {
  // Unarchiving shows older clients a subscription or a channel, which depends on the user.
  const shapeOf = (queue: EventQueue) =>
    queue.settings.capabilities.archived_channels ? 'update' : archived ? 'delete' : `${queue.userId}:${queue.settings.includeSubscribers}`;
  const event = perShape(shapeOf, (queue) => {
    if (queue.settings.capabilities.archived_channels) return streamUpdate(channel, 'is_archived', archived);
    if (archived) return streamDelete(channel);
    const subscription = stoa.channels.subscription(queue.userId, channel.recipient_id);
    if (subscription?.active) {
      return { type: 'subscription', op: 'add', subscriptions: [presentSubscription(stoa, channel, subscription, queue.settings.includeSubscribers)] };
    }
    return { type: 'stream', op: 'create', streams: [presentChannel(stoa, channel)] };
  });
  sendEvent(stoa, event, audience);
}

/** Applies checked changes to a channel in one transaction, with the events Zulip sends for each. */
export function updateChannel(stoa: Stoa, channelId: number, changes: ChannelChanges): void {
  write(stoa, () => {
    let channel = stoa.channels.byId(channelId)!;
    const before = new Set(channelAudience(stoa, channel));
    const updates: object[] = [];
    const now = unixSeconds(stoa.clock);

    if (changes.unarchive && channel.is_archived) {
      // An unarchived private channel is never web-public, whatever it was before.
      stoa.channels.update(channel.id, { is_archived: 0, ...(channel.invite_only ? { is_web_public: 0 } : {}) });
      channel = stoa.channels.byId(channelId)!;
      announceArchiving(stoa, channel, channelAudience(stoa, channel), false);
      before.clear();
      for (const id of channelAudience(stoa, channel)) before.add(id);
    }
    if (changes.privacy) {
      const { inviteOnly, isWebPublic, historyPublicToSubscribers } = changes.privacy;
      stoa.channels.update(channel.id, {
        invite_only: inviteOnly ? 1 : 0,
        is_web_public: isWebPublic ? 1 : 0,
        history_public_to_subscribers: historyPublicToSubscribers ? 1 : 0,
      });
      updates.push(streamUpdate(channel, 'invite_only', inviteOnly, {
        history_public_to_subscribers: historyPublicToSubscribers,
        is_web_public: isWebPublic,
      }));
    }
    if (changes.isDefault !== undefined && changes.isDefault !== (channel.is_default === 1)) {
      stoa.channels.update(channel.id, { is_default: changes.isDefault ? 1 : 0 });
    }
    if (changes.messageRetentionDays !== undefined && changes.messageRetentionDays !== channel.message_retention_days) {
      stoa.channels.update(channel.id, { message_retention_days: changes.messageRetentionDays });
      updates.push(streamUpdate(channel, 'message_retention_days', changes.messageRetentionDays));
    }
    if (changes.topicsPolicy !== undefined && changes.topicsPolicy !== channel.topics_policy) {
      stoa.channels.update(channel.id, { topics_policy: changes.topicsPolicy });
      updates.push(streamUpdate(channel, 'topics_policy', changes.topicsPolicy));
    }
    if (changes.description !== undefined) {
      const rendered = renderMarkdown(changes.description, markdownContextFor(stoa)).html;
      stoa.channels.update(channel.id, { description: changes.description, rendered_description: rendered });
      updates.push(streamUpdate(channel, 'description', changes.description, { rendered_description: rendered }));
    }
    if (changes.folderId !== undefined && changes.folderId !== channel.folder_id) {
      stoa.channels.update(channel.id, { folder_id: changes.folderId });
      updates.push(streamUpdate(channel, 'folder_id', changes.folderId));
    }
    for (const [setting, value] of Object.entries(changes.groupSettings ?? {}) as Array<[ChannelGroupSetting, GroupSettingValue]>) {
      const groupId = groupForValue(stoa, value, now);
      stoa.channels.update(channel.id, { [`${setting}_id`]: groupId });
      updates.push(streamUpdate(channel, setting, groupSettingValue(stoa, groupId)));
    }
    if (changes.name !== undefined && changes.name !== channel.name) {
      stoa.channels.update(channel.id, { name: changes.name });
      // The update names the channel by its old name, which is what clients know it by.
      updates.push(streamUpdate(channel, 'name', changes.name));
    }
    const updated = stoa.channels.byId(channelId)!;
    announceChannelChange(stoa, updated, before, updates);
    if (changes.isDefault !== undefined && changes.isDefault !== (channel.is_default === 1)) announceDefaultChannels(stoa);
  });
}

/** Archives a channel: it keeps its subscribers, leaves the default channels, and vanishes from lists. */
export function archiveChannel(stoa: Stoa, channelId: number): void {
  write(stoa, () => {
    const channel = stoa.channels.byId(channelId)!;
    const audience = channelAudience(stoa, channel);
    stoa.channels.update(channel.id, { is_archived: 1, is_default: 0 });
    announceArchiving(stoa, stoa.channels.byId(channelId)!, audience, true);
    if (channel.is_default) announceDefaultChannels(stoa);
    dropArchivedChannelFromGroups(stoa, channelId);
  });
}

/**
 * The token of a channel's email address for this user and sender (null: the email gateway):
 * made at random the first time it is asked for, then kept, so the address stays the same.
 */
export function channelEmailToken(stoa: Stoa, channel: ChannelRow, creator: UserRow, senderId: number | null): string {
  return write(stoa, () => {
    const existing = stoa.channels.emailToken(channel.id, creator.id, senderId);
    if (existing !== undefined) return existing;
    const token = randomBytes(16).toString('hex');
    stoa.channels.insertEmailToken(channel.id, creator.id, senderId, token);
    return token;
  });
}
