import { holdsGroupSetting, type GroupPermission } from '../groups/settings';
import { badRequest, unauthorized } from '../http/errors';
import { userHasRealmPermission, webPublicChannelsEnabled } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { Role, type UserRow } from '../users/queries';
import type { ChannelGroupSetting, ChannelRow } from './queries';

const EVERYONE_ALLOWED: GroupPermission = {
  requireSystemGroup: false,
  allowInternetGroup: false,
  allowNobodyGroup: true,
  allowEveryoneGroup: true,
  allowedSystemGroups: [],
};
/** Settings that grant access to the channel itself are never given to guests. */
const MEMBERS_ONLY: GroupPermission = { ...EVERYONE_ALLOWED, allowEveryoneGroup: false };

/**
 * Each channel group setting: which groups it may name, and what a new channel gets.
 * 'creator' is an ad-hoc group of the channel's creator alone.
 */
export const CHANNEL_SETTINGS: Record<ChannelGroupSetting, { permission: GroupPermission; default: string }> = {
  can_add_subscribers_group: { permission: MEMBERS_ONLY, default: 'role:nobody' },
  can_administer_channel_group: { permission: MEMBERS_ONLY, default: 'creator' },
  can_delete_any_message_group: { permission: EVERYONE_ALLOWED, default: 'role:nobody' },
  can_delete_own_message_group: { permission: EVERYONE_ALLOWED, default: 'role:nobody' },
  can_move_messages_out_of_channel_group: { permission: EVERYONE_ALLOWED, default: 'role:nobody' },
  can_move_messages_within_channel_group: { permission: EVERYONE_ALLOWED, default: 'role:nobody' },
  // Beyond the organization's realm_can_resolve_topics_group, which applies everywhere.
  can_resolve_topics_group: { permission: EVERYONE_ALLOWED, default: 'role:nobody' },
  can_create_topic_group: { permission: EVERYONE_ALLOWED, default: 'role:everyone' },
  can_remove_subscribers_group: { permission: EVERYONE_ALLOWED, default: 'role:administrators' },
  can_send_message_group: { permission: EVERYONE_ALLOWED, default: 'role:everyone' },
  can_subscribe_group: { permission: MEMBERS_ONLY, default: 'role:nobody' },
};

/** Whether the user holds one of the channel's group settings. */
export function holdsChannelSetting(stoa: Stoa, user: UserRow, channel: ChannelRow, setting: ChannelGroupSetting): boolean {
  return holdsGroupSetting(stoa, user, channel[`${setting}_id`], CHANNEL_SETTINGS[setting].permission);
}

export function isSubscribed(stoa: Stoa, user: UserRow, channel: ChannelRow): boolean {
  return stoa.channels.subscription(user.id, channel.recipient_id)?.active === 1;
}

function isAdministrator(user: UserRow): boolean {
  return user.role <= Role.ADMINISTRATOR;
}

/** Organization administrators, and the channel's own administrators (never guests). */
export function administersChannel(stoa: Stoa, user: UserRow, channel: ChannelRow): boolean {
  if (isAdministrator(user)) return true;
  return user.role !== Role.GUEST && holdsChannelSetting(stoa, user, channel, 'can_administer_channel_group');
}

/** May the user know the channel exists and see its settings and subscribers? */
export function hasMetadataAccess(stoa: Stoa, user: UserRow, channel: ChannelRow): boolean {
  if (channel.is_web_public) return true;
  // Asked first because it needs no query: /register asks it of every channel.
  if (user.role !== Role.GUEST && !channel.invite_only) return true;
  if (isSubscribed(stoa, user, channel)) return true;
  if (user.role === Role.GUEST) return false;
  if (isAdministrator(user)) return true;
  return (
    holdsChannelSetting(stoa, user, channel, 'can_administer_channel_group') ||
    holdsChannelSetting(stoa, user, channel, 'can_add_subscribers_group') ||
    holdsChannelSetting(stoa, user, channel, 'can_subscribe_group')
  );
}

/** May the user read the channel's messages and subscribe themselves? */
export function hasContentAccess(stoa: Stoa, user: UserRow, channel: ChannelRow): boolean {
  if (channel.is_web_public) return true;
  if (user.role !== Role.GUEST && !channel.invite_only) return true;
  if (isSubscribed(stoa, user, channel)) return true;
  if (user.role === Role.GUEST) return false;
  return (
    holdsChannelSetting(stoa, user, channel, 'can_subscribe_group') ||
    holdsChannelSetting(stoa, user, channel, 'can_add_subscribers_group')
  );
}

/** May the user subscribe other people to a channel they have content access to? */
export function canAddSubscribers(stoa: Stoa, user: UserRow, channel: ChannelRow): boolean {
  return (
    isAdministrator(user) ||
    userHasRealmPermission(stoa, user, 'realm_can_add_subscribers_group') ||
    holdsChannelSetting(stoa, user, channel, 'can_administer_channel_group') ||
    holdsChannelSetting(stoa, user, channel, 'can_add_subscribers_group')
  );
}

/** May the user unsubscribe other people from all these channels? */
export function canRemoveSubscribers(stoa: Stoa, user: UserRow, channels: readonly ChannelRow[]): boolean {
  if (isAdministrator(user)) return true;
  if (user.role === Role.GUEST) return false;
  if (channels.every((c) => holdsChannelSetting(stoa, user, c, 'can_administer_channel_group'))) return true;
  return channels.every(
    (c) => hasMetadataAccess(stoa, user, c) && holdsChannelSetting(stoa, user, c, 'can_remove_subscribers_group'),
  );
}

export function invalidChannelId() {
  return badRequest('Invalid channel ID');
}

/**
 * A channel the user may see, by ID. A channel that does not exist, is out of reach or (unless
 * allowed) archived gets the same answer, so a private channel's existence never leaks.
 */
export function accessChannelById(
  stoa: Stoa,
  user: UserRow,
  channelId: number,
  options: { need: 'metadata' | 'content'; allowArchived?: boolean },
): ChannelRow {
  const channel = stoa.channels.byId(channelId);
  if (!channel || (channel.is_archived && !options.allowArchived)) throw invalidChannelId();
  const allowed =
    options.need === 'content' ? hasContentAccess(stoa, user, channel) : hasMetadataAccess(stoa, user, channel);
  if (!allowed) throw invalidChannelId();
  return channel;
}

/** The same, by name: `Invalid channel name '…'` for every kind of miss. */
export function accessChannelByName(stoa: Stoa, user: UserRow, name: string): ChannelRow {
  const channel = stoa.channels.byName(name);
  if (!channel || channel.is_archived || !hasContentAccess(stoa, user, channel)) {
    throw badRequest(`Invalid channel name '${name}'`);
  }
  return channel;
}

/**
 * Spectators (people without an account) are served only while the server's --web-public
 * switch and the organization's enable_spectator_access are both on; otherwise they get the
 * authentication error anyone without credentials gets, as on Zulip.
 */
export function checkSpectatorAccess(stoa: Stoa): void {
  if (!webPublicChannelsEnabled(stoa)) throw unauthorized();
}

/**
 * Whether spectators may read the channel: web-public, public with shared history and not
 * archived, the conditions of Zulip's web-public channel list.
 */
export function isSpectatorReadable(channel: ChannelRow): boolean {
  return channel.is_web_public === 1 && channel.invite_only === 0 && channel.history_public_to_subscribers === 1 && channel.is_archived === 0;
}

/** The channels spectators may read, while spectator access is on (none otherwise). */
export function spectatorChannels(stoa: Stoa): ChannelRow[] {
  return webPublicChannelsEnabled(stoa) ? stoa.channels.all().filter(isSpectatorReadable) : [];
}
