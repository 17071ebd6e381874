import { hasContentAccess } from '../channels/access';
import type { ChannelRow } from '../channels/queries';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { HISTORICAL_VIEW_FLAGS } from './flags';
import type { MessageRow } from './queries';

/**
 * May the user read a channel's messages from before they joined? Only where the channel
 * shares its history with subscribers and the user may read the channel at all.
 */
export function canReadChannelHistory(stoa: Stoa, user: UserRow, channel: ChannelRow): boolean {
  return channel.history_public_to_subscribers === 1 && hasContentAccess(stoa, user, channel);
}

export function invalidMessage() {
  return badRequest('Invalid message(s)');
}

export interface AccessibleMessage {
  row: MessageRow;
  /** The user's flag bits; a message reached through channel history reads as read and historical. */
  flags: number;
  /** Whether the message is in the user's own history (has a user_messages row). */
  inHistory: boolean;
}

/**
 * A message the user may read: in their own history, or in a channel history open to them.
 * `modifying`: the caller changes the message or what hangs on it (reactions), which an
 * archived channel's messages refuse.
 */
export function accessMessage(stoa: Stoa, user: UserRow, messageId: number, { modifying = false } = {}): AccessibleMessage {
  const row = stoa.messages.byId(messageId);
  if (!row) throw invalidMessage();
  if (modifying && row.stream_id !== null && stoa.channels.byId(row.stream_id)!.is_archived === 1) throw invalidMessage();
  const flags = stoa.messages.flagsOf(user.id, messageId);
  if (flags !== undefined) return { row, flags, inHistory: true };
  if (row.stream_id !== null && canReadChannelHistory(stoa, user, stoa.channels.byId(row.stream_id)!)) {
    return { row, flags: HISTORICAL_VIEW_FLAGS, inHistory: false };
  }
  throw invalidMessage();
}

/** Whether the user may read the message (as accessMessage, without the errors). */
export function canAccessMessage(stoa: Stoa, user: UserRow, row: MessageRow): boolean {
  if (stoa.messages.flagsOf(user.id, row.id) !== undefined) return true;
  return row.stream_id !== null && canReadChannelHistory(stoa, user, stoa.channels.byId(row.stream_id)!);
}

/**
 * Who hears of a change to a message: everyone with it in their history and, where the
 * channel shares its history, every subscriber, who may have fetched it from there.
 */
export function messageAudience(stoa: Stoa, row: MessageRow): Set<number> {
  return messagesAudience(stoa, [row]);
}

/** The same for messages of one conversation, whose channel's subscribers are read once. */
export function messagesAudience(stoa: Stoa, rows: readonly MessageRow[]): Set<number> {
  const audience = new Set<number>();
  for (const row of rows) for (const id of stoa.messages.holderIds(row.id)) audience.add(id);
  const streamId = rows[0]?.stream_id ?? null;
  const channel = streamId === null ? undefined : stoa.channels.byId(streamId)!;
  if (channel?.history_public_to_subscribers) {
    for (const id of stoa.channels.subscriberIds(channel.recipient_id)) audience.add(id);
  }
  return audience;
}
