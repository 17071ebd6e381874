import { unixSeconds } from '../clock';
import { sendEvent, write } from '../events/send';
import { ApiError, badRequest } from '../http/errors';
import { sendMessage } from '../messages/actions';
import { globalTime, notificationBot, noticeOptions } from '../messages/notices';
import { serverTimer } from '../server-timer';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { checkedAddressee } from './addressee';
import { presentScheduledMessage } from './present';
import type { ScheduledMessageRow } from './queries';

/**
 * The server sends scheduled messages (and reminders, kept with them) itself. One timer waits for the earliest message due;
 * every change to the scheduled messages re-arms it, and each time it fires it sends every
 * message whose time has come, then waits for the next. A server that was stopped when a
 * message came due sends it when it starts again, as Zulip's delivery worker does when it
 * catches up.
 */

/** Zulip sends a scheduled message at most this late; later, sending it would surprise its readers. */
const LATE_CUTOFF_SECONDS = 10 * 60;

/** Why a message was not sent when nothing the sender did explains it. */
const UNEXPECTED_FAILURE = 'Internal server error';

/** How long to wait before trying again when the database would not even record a failure. */
const RETRY_MS = 60_000;

const armAt = serverTimer(deliverDueMessages);

/** Points the timer at the earliest message waiting to be sent, or stops it if none is. */
export function rescheduleDelivery(stoa: Stoa): void {
  const next = stoa.scheduledMessages.nextDueTimestamp();
  armAt(stoa, next === undefined ? undefined : next * 1000);
}

/** Stops the timer, for shutdown: what is due meanwhile is sent at the next start. */
export function stopDelivery(stoa: Stoa): void {
  armAt(stoa, undefined);
}

/** Sends, in time order, every message whose time has come, then waits for the next one. */
function deliverDueMessages(stoa: Stoa): void {
  const now = unixSeconds(stoa.clock);
  for (let row = stoa.scheduledMessages.firstDue(now); row; row = stoa.scheduledMessages.firstDue(now)) {
    if (!deliverOne(stoa, row)) {
      // Trying again at once would only fail again, in a loop.
      armAt(stoa, stoa.clock.now() + RETRY_MS);
      return;
    }
  }
  rescheduleDelivery(stoa);
}

/** Sends one message, or records why it could not be; false if not even that could be recorded. */
function deliverOne(stoa: Stoa, row: ScheduledMessageRow): boolean {
  const sender = stoa.users.byId(row.sender_id)!;
  try {
    write(stoa, () => {
      if (!sender.is_active) throw badRequest('Account is deactivated');
      if (unixSeconds(stoa.clock) > row.scheduled_timestamp + LATE_CUTOFF_SECONDS) {
        throw badRequest('Message could not be sent at the scheduled time.');
      }
      if (row.reminder_target_message_id !== null) {
        // A reminder: the notification bot reminds its user, who has not read it yet.
        const messageId = sendMessage(stoa, notificationBot(stoa), { type: 'direct', users: [sender] }, row.content, noticeOptions(() => false));
        stoa.scheduledMessages.markDelivered(row.id, messageId);
        sendEvent(stoa, { type: 'reminders', op: 'remove', reminder_id: row.id }, [sender.id]);
        return;
      }
      const to = JSON.parse(row.to_ids) as number[];
      const addressee = checkedAddressee(stoa, sender, row.type, to, row.topic);
      const messageId = sendMessage(stoa, sender, addressee, row.content, {
        client: row.sending_client,
        readBySender: row.read_by_sender === 1,
      });
      stoa.scheduledMessages.markDelivered(row.id, messageId);
      sendEvent(stoa, { type: 'scheduled_messages', op: 'remove', scheduled_message_id: row.id }, [sender.id]);
    });
    return true;
  } catch (err) {
    const why = err instanceof ApiError ? err.message : UNEXPECTED_FAILURE;
    if (!(err instanceof ApiError)) stoa.log(`error: sending scheduled message ${row.id}: ${(err as Error).stack ?? String(err)}`);
    return recordFailure(stoa, row, sender, why);
  }
}

/**
 * A message that could not be sent stays listed, marked failed, until its sender edits it
 * (with a new time) or deletes it; the sender's clients are told, and the notification bot
 * tells the sender why. A deactivated sender is told nothing: nobody reads their messages.
 */
function recordFailure(stoa: Stoa, row: ScheduledMessageRow, sender: UserRow, why: string): boolean {
  try {
    write(stoa, () => {
      stoa.scheduledMessages.markFailed(row.id, why);
      // A reminder stays listed as failed; there is no event to say so, and nothing to fix.
      if (!sender.is_active || row.reminder_target_message_id !== null) return;
      sendEvent(
        stoa,
        { type: 'scheduled_messages', op: 'update', scheduled_message: presentScheduledMessage(stoa.scheduledMessages.get(sender.id, row.id)!) },
        [sender.id],
      );
      sendMessage(stoa, notificationBot(stoa), { type: 'direct', users: [sender] }, failureNotice(row, why), noticeOptions(() => false));
    });
    return true;
  } catch (err) {
    stoa.log(`error: recording the failure of scheduled message ${row.id}: ${(err as Error).stack ?? String(err)}`);
    try {
      write(stoa, () => stoa.scheduledMessages.markFailed(row.id, why));
      return true;
    } catch {
      return false;
    }
  }
}

/** The notification bot's message to a sender whose scheduled message was not sent. */
function failureNotice(row: ScheduledMessageRow, why: string): string {
  const quoted = why
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return `Your message scheduled for ${globalTime(row.scheduled_timestamp)} could not be sent:\n\n${quoted}\n\n[See your scheduled messages](#scheduled)`;
}
