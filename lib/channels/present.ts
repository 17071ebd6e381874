import { groupSettingValue } from '../groups/settings';
import type { Stoa } from '../stoa';
import { CHANNEL_GROUP_SETTINGS, type ChannelRow, type SubscriptionRow } from './queries';

/** Pre-group-settings clients read who may post as a number, from the posting group. */
const POST_POLICY_BY_GROUP: Record<string, number> = {
  'role:everyone': 1,
  'role:administrators': 2,
  'role:fullmembers': 3,
  'role:moderators': 4,
};

function streamPostPolicy(stoa: Stoa, channel: ChannelRow): number {
  const group = stoa.groups.byId(channel.can_send_message_group_id)!;
  return (group.is_system_group && POST_POLICY_BY_GROUP[group.name!]) || 1;
}

/** A Channel object of the API. */
export function presentChannel(stoa: Stoa, channel: ChannelRow): Record<string, unknown> {
  const postPolicy = streamPostPolicy(stoa, channel);
  const presented: Record<string, unknown> = {
    stream_id: channel.id,
    name: channel.name,
    is_archived: channel.is_archived === 1,
    description: channel.description,
    rendered_description: channel.rendered_description,
    date_created: channel.date_created,
    creator_id: channel.creator_id,
    invite_only: channel.invite_only === 1,
    is_web_public: channel.is_web_public === 1,
    history_public_to_subscribers: channel.history_public_to_subscribers === 1,
    message_retention_days: channel.message_retention_days,
    first_message_id: channel.first_message_id,
    folder_id: channel.folder_id,
    topics_policy: channel.topics_policy,
    // Messages do not exist yet, so no channel has traffic to measure or recent activity to lack.
    is_recently_active: true,
    stream_weekly_traffic: null,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === 2,
    // Clients keep it current from the subscription events; nothing announces it on its own.
    subscriber_count: stoa.channels.subscriberCount(channel.recipient_id),
  };
  for (const setting of CHANNEL_GROUP_SETTINGS) presented[setting] = groupSettingValue(stoa, channel[`${setting}_id`]);
  return presented;
}

/** Per-subscription settings; null notification settings follow the user's global ones. */
export function personalSettings(subscription: SubscriptionRow): Record<string, unknown> {
  const flag = (value: 0 | 1 | null) => (value === null ? null : value === 1);
  return {
    color: subscription.color,
    is_muted: subscription.is_muted === 1,
    in_home_view: subscription.is_muted === 0,
    pin_to_top: subscription.pin_to_top === 1,
    desktop_notifications: flag(subscription.desktop_notifications),
    audible_notifications: flag(subscription.audible_notifications),
    push_notifications: flag(subscription.push_notifications),
    email_notifications: flag(subscription.email_notifications),
    wildcard_mentions_notify: flag(subscription.wildcard_mentions_notify),
  };
}

/** How a client asked for subscriber lists: not at all, in full, or partial for big channels. */
export type SubscriberListing = boolean | 'partial';

/** Channels this big get a partial subscriber list when the client asks for one. */
const PARTIAL_SUBSCRIBERS_MIN = 1000;

export function subscriberFields(stoa: Stoa, channel: ChannelRow, listing: SubscriberListing): Record<string, unknown> {
  if (listing === false) return {};
  const subscribers = stoa.channels.subscriberIds(channel.recipient_id);
  // The partial list must hold every bot and every recently active subscriber; without
  // activity data the whole list is the one subset that surely does.
  if (listing === 'partial' && subscribers.length >= PARTIAL_SUBSCRIBERS_MIN) return { partial_subscribers: subscribers };
  return { subscribers };
}

/** A Subscription object: the channel, the user's own settings for it, and maybe its subscribers. */
export function presentSubscription(
  stoa: Stoa,
  channel: ChannelRow,
  subscription: SubscriptionRow,
  listing: SubscriberListing,
): Record<string, unknown> {
  return { ...presentChannel(stoa, channel), ...personalSettings(subscription), ...subscriberFields(stoa, channel, listing) };
}
