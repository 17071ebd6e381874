import { sendEvent, write } from '../events/send';
import { badRequest } from '../http/errors';
import { withdrawAllPushNotifications, withdrawPushNotifications } from '../push/actions';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { accessMessage } from './access';
import { Flag, HISTORICAL_VIEW_FLAGS, type FlagName } from './flags';
import type { MessageRow } from './queries';

export interface FlagChange {
  /** Messages whose flag actually changed. */
  changed: number[];
  /** Messages the request applied to: all of them but those in the ignored channels. */
  applied: number[];
  /** For read removal: channels the user left, whose messages were skipped. */
  ignoredChannelIds: number[];
}

/** The user's direct-conversation partners (not the user), as unread bookkeeping names them. */
export function otherParticipants(stoa: Stoa, userId: number, recipientId: number): number[] {
  const recipient = stoa.messages.recipient(recipientId)!;
  return stoa.messages.directGroupMembers(recipient.type_id).filter((id) => id !== userId);
}

/** What a client needs to put a message back among its unreads after it is marked unread. */
function unreadDetails(stoa: Stoa, user: UserRow, row: MessageRow, flags: number): Record<string, unknown> {
  const mentioned = (flags & Flag.mentioned) !== 0;
  const wildcard = (flags & (Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned)) !== 0;
  if (row.stream_id === null) {
    const details: Record<string, unknown> = { type: 'private', user_ids: otherParticipants(stoa, user.id, row.recipient_id) };
    if (mentioned || wildcard) details.mentioned = true;
    return details;
  }
  const unmuted = stoa.channels.subscription(user.id, row.recipient_id)?.is_muted !== 1;
  const details: Record<string, unknown> = { type: 'stream', stream_id: row.stream_id, topic: row.topic, unmuted_stream_msg: unmuted };
  if (mentioned || (wildcard && unmuted)) details.mentioned = true;
  return details;
}

function announceFlags(
  stoa: Stoa,
  user: UserRow,
  op: 'add' | 'remove',
  flag: string,
  messages: number[],
  details?: Record<string, unknown>,
): void {
  const event: Record<string, unknown> = { type: 'update_message_flags', op, operation: op, flag, messages, all: false };
  if (details) event.message_details = details;
  sendEvent(stoa, event as { type: string }, [user.id]);
}

/**
 * Sets or clears a user-changeable flag on messages. Messages the user reads through a
 * channel's history (no row of their own) get a row flagged historical when the change
 * makes them differ from "read"; marking them read changes nothing.
 */
export function updateFlags(stoa: Stoa, user: UserRow, messageIds: readonly number[], op: 'add' | 'remove', flag: FlagName): FlagChange {
  return write(stoa, () => {
    const bit = Flag[flag];
    const ids = [...new Set(messageIds)];
    const rows = new Map(stoa.messages.byIds(ids).map((row) => [row.id, row]));
    const ignoredChannelIds = new Set<number>();
    let candidates = ids;
    if (flag === 'read' && op === 'remove') {
      candidates = ids.filter((id) => {
        const row = rows.get(id);
        if (!row || row.stream_id === null) return true;
        if (stoa.channels.subscription(user.id, row.recipient_id)?.active === 1) return true;
        ignoredChannelIds.add(row.stream_id);
        return false;
      });
    }
    const own = stoa.messages.flagsOfMany(user.id, candidates);
    const wantsBit = op === 'add';
    const differs = (flags: number) => ((flags & bit) !== 0) !== wantsBit;
    const toChange = candidates.filter((id) => differs(own.get(id) ?? HISTORICAL_VIEW_FLAGS));
    const newRows = toChange.filter((id) => !own.has(id));
    for (const id of newRows) accessMessage(stoa, user, id); // all or nothing: one unreachable message refuses the lot
    for (const id of newRows) {
      stoa.messages.insertUserMessage(user.id, id, wantsBit ? HISTORICAL_VIEW_FLAGS | bit : HISTORICAL_VIEW_FLAGS & ~bit);
    }
    const existing = toChange.filter((id) => own.has(id));
    if (wantsBit) stoa.messages.setFlag(user.id, bit, existing);
    else stoa.messages.clearFlag(user.id, bit, existing);
    let details: Record<string, unknown> | undefined;
    if (flag === 'read' && op === 'remove') {
      details = Object.fromEntries(
        toChange.map((id) => [String(id), unreadDetails(stoa, user, rows.get(id)!, own.get(id) ?? 0)]),
      );
    }
    announceFlags(stoa, user, op, flag, toChange, details);
    if (flag === 'read' && op === 'add') withdrawPushNotifications(stoa, [user.id], toChange);
    return { changed: toChange, applied: candidates, ignoredChannelIds: [...ignoredChannelIds].sort((a, b) => a - b) };
  });
}

/** Marks every message of the user read; clients learn of it through one `all` event. */
export function markAllAsRead(stoa: Stoa, user: UserRow): void {
  write(stoa, () => {
    withdrawAllPushNotifications(stoa, user.id);
    stoa.messages.markAllRead(user.id);
    sendEvent(
      stoa,
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true },
      [user.id],
    );
  });
}

/** Marks the user's unread messages of a channel, or of one of its topics, read. */
export function markChannelAsRead(stoa: Stoa, user: UserRow, recipientId: number, topic?: string): void {
  write(stoa, () => {
    const ids =
      topic === undefined ? stoa.messages.unreadIn(user.id, recipientId) : stoa.messages.unreadInTopic(user.id, recipientId, topic);
    if (ids.length === 0) return;
    stoa.messages.setFlag(user.id, Flag.read, ids);
    announceFlags(stoa, user, 'add', 'read', ids);
    withdrawPushNotifications(stoa, [user.id], ids);
  });
}

export function invalidFlag(flag: string) {
  return badRequest(`Invalid flag: '${flag}'`);
}
