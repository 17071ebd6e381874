import { realmSetting } from '../realm/settings-store';
import { serverTimer } from '../server-timer';
import type { Stoa } from '../stoa';
import { deleteMessages } from './delete';
import { MESSAGE_COLUMNS, type MessageRow } from './queries';

/**
 * Message retention, as Zulip's daily archiving does it: a channel's messages older than its
 * `message_retention_days` (or the organization's, where the channel inherits it) are deleted,
 * and so are direct messages older than the organization's; -1 keeps them forever. Deleting
 * them tells everyone who had them with delete_message events (level 452), as any deletion
 * does. Stoa looks when it starts and then once a day.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Messages deleted in one transaction, so other requests are served in between. */
const BATCH_SIZE = 1000;

const armAt = serverTimer(applyRetention);

/** Deletes what has expired now, then once a day. */
export function startRetention(stoa: Stoa): void {
  armAt(stoa, stoa.clock.now());
}

/** Stops the daily look, for shutdown. */
export function stopRetention(stoa: Stoa): void {
  armAt(stoa, undefined);
}

function applyRetention(stoa: Stoa): void {
  const nowSeconds = Math.floor(stoa.clock.now() / 1000);
  const sentBefore = (days: number | null) => (days === null || days <= 0 ? undefined : nowSeconds - days * 86_400);
  const realmDays = realmSetting(stoa, 'realm_message_retention_days') as number;
  for (const channel of stoa.channels.all()) {
    const before = sentBefore(channel.message_retention_days ?? realmDays);
    if (before !== undefined) deleteExpired(stoa, 'm.recipient_id = @recipient', { recipient: channel.recipient_id, before });
  }
  const directBefore = sentBefore(realmDays);
  if (directBefore !== undefined) deleteExpired(stoa, 'm.stream_id IS NULL', { before: directBefore });
  armAt(stoa, stoa.clock.now() + DAY_MS);
}

/** Deletes, a batch at a time and one conversation at a time, the messages sent before `before`. */
function deleteExpired(stoa: Stoa, where: string, params: { before: number; recipient?: number }): void {
  const sql = `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE ${where} AND m.date_sent < @before ORDER BY m.id LIMIT ${BATCH_SIZE}`;
  for (let batch = stoa.messages.messagesOf(sql, params); batch.length > 0; batch = stoa.messages.messagesOf(sql, params)) {
    const conversations = new Map<string, MessageRow[]>();
    for (const row of batch) {
      const key = `${row.recipient_id}|${row.stream_id === null ? '' : row.topic_key}`;
      conversations.set(key, [...(conversations.get(key) ?? []), row]);
    }
    for (const rows of conversations.values()) deleteMessages(stoa, null, rows);
  }
}
