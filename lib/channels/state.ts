import type { StateContext } from '../events/state-context';
import { JsonText } from '../http/json';
import type { Stoa } from '../stoa';
import { KeptWhileUnwritten } from '../table-writes';
import { Role } from '../users/queries';
import { hasMetadataAccess, spectatorChannels } from './access';
import { SUBSCRIPTION_COLORS } from './actions';
import { personalSettings, presentChannel, presentSubscription, subscriberFields, type SubscriberListing } from './present';
import type { ChannelRow, SubscriptionRow } from './queries';
import { listChannels } from './views';

function byName(a: ChannelRow, b: ChannelRow): number {
  return a.name.localeCompare(b.name);
}

/**
 * What a channel's shared fields are made of: its row, its subscribers (their count and list,
 * active accounts only) and the groups its settings name (members of anonymous ones included).
 */
const CHANNEL_TABLES = ['streams', 'subscriptions', 'users', 'user_groups', 'user_group_members', 'user_group_subgroups', 'realm', 'realm_settings'];

/**
 * The parts of channels' JSON that are the same for every viewer: the Channel object's fields
 * and the subscriber fields of each listing, as JSON object bodies without their braces.
 */
interface ChannelTexts {
  fields: Map<number, string>;
  subscribers: Map<string, string>;
}

const keptChannelTexts = new WeakMap<Stoa, KeptWhileUnwritten<ChannelTexts>>();

function channelTexts(stoa: Stoa): ChannelTexts {
  let kept = keptChannelTexts.get(stoa);
  if (!kept) keptChannelTexts.set(stoa, (kept = new KeptWhileUnwritten(stoa.tableWrites, CHANNEL_TABLES)));
  return kept.get(() => ({ fields: new Map(), subscribers: new Map() }));
}

/** An object's JSON without its braces: '' for an empty one. */
function objectBody(value: Record<string, unknown>): string {
  return JSON.stringify(value).slice(1, -1);
}

/** A Channel object's fields as JSON (presentChannel's, without braces), kept. */
function channelFields(stoa: Stoa, texts: ChannelTexts, channel: ChannelRow): string {
  let fields = texts.fields.get(channel.id);
  if (fields === undefined) texts.fields.set(channel.id, (fields = objectBody(presentChannel(stoa, channel))));
  return fields;
}

/**
 * One channel as `subscriptions`, `unsubscribed` (with the user's own settings) or
 * `never_subscribed` (without) list it, as JSON: the text JSON.stringify gives the presented
 * object (presentSubscription; without the user's settings for a channel never joined), its
 * shared parts kept.
 */
function subscriptionJson(stoa: Stoa, texts: ChannelTexts, channel: ChannelRow, row: SubscriptionRow | undefined, listing: SubscriberListing): string {
  const fields = channelFields(stoa, texts, channel);
  const key = `${channel.id} ${listing}`;
  let subscribers = texts.subscribers.get(key);
  if (subscribers === undefined) texts.subscribers.set(key, (subscribers = objectBody(subscriberFields(stoa, channel, listing))));
  const parts = [fields];
  if (row) parts.push(objectBody(personalSettings(row)));
  parts.push(subscribers);
  return `{${parts.filter((part) => part !== '').join(',')}}`;
}

/**
 * Register state for fetch type `subscription`: the channels the user is in, the ones they
 * left (while they can still see them) and the visible ones they never joined. Archived
 * channels only reach clients that declared they handle them. Each channel's shared part (its
 * fields, its subscribers) is kept as JSON until a table it is made of is written: with a
 * thousand people, each registration would otherwise serialize the same subscriber lists again.
 */
export function subscriptionState({ stoa, user, queue }: StateContext): Record<string, unknown> {
  const listing = queue.includeSubscribers;
  const visible = (c: ChannelRow) => queue.capabilities.archived_channels || !c.is_archived;
  const rows = new Map(stoa.channels.subscriptionsOf(user.id).map((s) => [s.stream_id, s]));
  const texts = channelTexts(stoa);
  const subscriptions: string[] = [];
  const unsubscribed: string[] = [];
  const neverSubscribed: string[] = [];
  for (const channel of stoa.channels.all().filter(visible).sort(byName)) {
    const row = rows.get(channel.id);
    if (row?.active) subscriptions.push(subscriptionJson(stoa, texts, channel, row, listing));
    else if (!hasMetadataAccess(stoa, user, channel)) continue;
    else if (row) unsubscribed.push(subscriptionJson(stoa, texts, channel, row, listing));
    else neverSubscribed.push(subscriptionJson(stoa, texts, channel, undefined, listing));
  }
  const array = (items: string[]) => new JsonText(`[${items.join(',')}]`);
  return { subscriptions: array(subscriptions), unsubscribed: array(unsubscribed), never_subscribed: array(neverSubscribed) };
}

/** Register state for fetch type `stream`: every channel the user may see, from the kept JSON. */
export function streamState({ stoa, user, queue }: StateContext): Record<string, unknown> {
  const channels = listChannels(stoa, user, {
    include_public: true,
    include_web_public: true,
    include_subscribed: true,
    exclude_archived: !queue.capabilities.archived_channels,
    include_all: true,
    include_all_active: false,
    include_default: false,
    include_owner_subscribed: false,
    include_can_access_content: false,
  });
  const texts = channelTexts(stoa);
  return { streams: new JsonText(`[${channels.map((channel) => `{${channelFields(stoa, texts, channel)}}`).join(',')}]`) };
}

/** Register state for fetch type `default_streams`: the channels new users join. */
export function defaultStreamsState({ stoa, user }: StateContext): Record<string, unknown> {
  return { realm_default_streams: user.role === Role.GUEST ? [] : stoa.channels.defaultIds() };
}

/**
 * A spectator's `subscription` state, as Zulip builds it: every channel spectators may read,
 * as if just subscribed with a new subscriber's settings (palette colors in turn), and
 * nothing left or never joined.
 */
export function spectatorSubscriptionState({ stoa }: StateContext): Record<string, unknown> {
  const subscriptions = spectatorChannels(stoa)
    .sort(byName)
    .map((channel, i) => {
      const simulated: SubscriptionRow = {
        user_id: 0,
        recipient_id: channel.recipient_id,
        active: 1,
        color: SUBSCRIPTION_COLORS[i % SUBSCRIPTION_COLORS.length],
        is_muted: 0,
        pin_to_top: 0,
        desktop_notifications: 1,
        audible_notifications: 1,
        push_notifications: 1,
        email_notifications: 1,
        wildcard_mentions_notify: 1,
      };
      return presentSubscription(stoa, channel, simulated, false);
    });
  return { subscriptions, unsubscribed: [], never_subscribed: [] };
}
