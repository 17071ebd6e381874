import type { StateContext } from '../events/state-context';
import { Role } from '../users/queries';
import { hasMetadataAccess, spectatorChannels } from './access';
import { SUBSCRIPTION_COLORS } from './actions';
import { presentChannel, presentSubscription, presentUnsubscribedChannel } from './present';
import type { ChannelRow, SubscriptionRow } from './queries';
import { listChannels } from './views';

function byName(a: ChannelRow, b: ChannelRow): number {
  return a.name.localeCompare(b.name);
}

/**
 * Register state for fetch type `subscription`: the channels the user is in, the ones they
 * left (while they can still see them) and the visible ones they never joined. Archived
 * channels only reach clients that declared they handle them.
 */
export function subscriptionState({ stoa, user, queue }: StateContext): Record<string, unknown> {
  const listing = queue.includeSubscribers;
  const visible = (c: ChannelRow) => queue.capabilities.archived_channels || !c.is_archived;
  const rows = new Map(stoa.channels.subscriptionsOf(user.id).map((s) => [s.stream_id, s]));
  const subscriptions: Array<Record<string, unknown>> = [];
  const unsubscribed: Array<Record<string, unknown>> = [];
  const neverSubscribed: Array<Record<string, unknown>> = [];
  for (const channel of stoa.channels.all().filter(visible).sort(byName)) {
    const row = rows.get(channel.id);
    if (row?.active) subscriptions.push(presentSubscription(stoa, channel, row, listing));
    else if (!hasMetadataAccess(stoa, user, channel)) continue;
    else if (row) unsubscribed.push(presentSubscription(stoa, channel, row, listing));
    else neverSubscribed.push(presentUnsubscribedChannel(stoa, channel, listing));
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}

/** Register state for fetch type `stream`: every channel the user may see. */
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
  return { streams: channels.map((channel) => presentChannel(stoa, channel)) };
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
