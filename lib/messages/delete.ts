import { attachmentsOfMessage, releaseAttachments } from '../uploads/actions';
import { refreshFirstMessage } from '../channels/actions';
import { accessChannelById, holdsChannelSetting } from '../channels/access';
import { perShape, type EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import { realmSetting, userHasRealmPermission } from '../realm/settings-store';
import { withdrawPushNotifications } from '../push/actions';
import type { Stoa } from '../stoa';
import { setTopicVisibility } from '../user-topics/actions';
import { VisibilityPolicy } from '../user-topics/queries';
import { type UserRow } from '../users/queries';
import { accessMessage, canAccessMessage, canReadChannelHistory, messagesAudience } from './access';
import type { MessageRow } from './queries';
import { displayTopic, EMPTY_TOPIC_DISPLAY_NAME } from './topics';
import { requireAdministrator } from '../users/access';

function cannotDelete() {
  return badRequest("You don't have permission to delete this message");
}

/** Zulip's rules: anyone holding a delete-any permission; else the sender, within the time limit. */
function checkCanDelete(stoa: Stoa, user: UserRow, row: MessageRow): void {
  const channel = row.stream_id === null ? undefined : stoa.channels.byId(row.stream_id)!;
  if (userHasRealmPermission(stoa, user, 'realm_can_delete_any_message_group')) return;
  if (channel && holdsChannelSetting(stoa, user, channel, 'can_delete_any_message_group')) return;
  const sender = stoa.users.byId(row.sender_id)!;
  if (sender.id !== user.id && sender.bot_owner_id !== user.id) throw cannotDelete();
  const mayDeleteOwn =
    userHasRealmPermission(stoa, user, 'realm_can_delete_own_message_group') ||
    (channel !== undefined && holdsChannelSetting(stoa, user, channel, 'can_delete_own_message_group'));
  if (!mayDeleteOwn) throw cannotDelete();
  const limit = realmSetting(stoa, 'realm_message_content_delete_limit_seconds') as number | null;
  if (limit !== null && Math.floor(stoa.clock.now() / 1000) - row.date_sent > limit) {
    throw badRequest('The time limit for deleting this message has passed');
  }
}

/**
 * Deletes messages of one conversation (a channel topic, or a direct conversation) for
 * everyone, telling everyone who had them or could read them: clients that declared
 * bulk_message_deletion in one event, older ones in one event per message. The deleter hears
 * too if they were not among them, but only of the messages they could read, and not at all
 * if none (level 457); the retention policy (`actor` null) tells only them. Uploads no message links any more go with them. Call inside `write`
 * or on its own.
 */
export function deleteMessages(stoa: Stoa, actor: UserRow | null, rows: readonly MessageRow[]): void {
  if (rows.length === 0) return;
  write(stoa, () => {
    const audience = messagesAudience(stoa, rows);
    const sortedIds = (some: readonly MessageRow[]) => some.map((row) => row.id).sort((a, b) => a - b);
    const actorIds = !actor || audience.has(actor.id) ? [] : sortedIds(rows.filter((row) => canAccessMessage(stoa, actor, row)));
    const [first] = rows;
    const channel = first.stream_id === null ? undefined : stoa.channels.byId(first.stream_id)!;
    // An upload linked by several of them is released once, after all are gone.
    const attachments = new Map(rows.flatMap((row) => attachmentsOfMessage(stoa, row.id)).map((a) => [a.id, a]));
    withdrawPushNotifications(stoa, null, sortedIds(rows));
    for (const row of rows) stoa.messages.delete(row.id);
    releaseAttachments(stoa, [...attachments.values()]);
    if (channel) refreshFirstMessage(stoa, channel);
    const place = channel ? { message_type: 'stream', stream_id: channel.id } : { message_type: 'private' };
    const topicFor = (queue: EventQueue) =>
      channel ? displayTopic(first.topic, queue.settings.capabilities.empty_topic_name) : undefined;
    const shapeOf = (queue: EventQueue) => `${queue.settings.capabilities.bulk_message_deletion}|${topicFor(queue)}`;
    const deletion = (queue: EventQueue, ids: { message_ids: number[] } | { message_id: number }) => {
      const topic = topicFor(queue);
      return { type: 'delete_message', ...ids, ...place, ...(topic === undefined ? {} : { topic }) };
    };
    const announce = (ids: readonly number[], userIds: Iterable<number>) => {
      if (ids.length === 0) return;
      const bulk = (queue: EventQueue) => queue.settings.capabilities.bulk_message_deletion;
      sendEvent(stoa, perShape(shapeOf, (queue) => (bulk(queue) ? deletion(queue, { message_ids: [...ids] }) : null)), userIds);
      for (const id of ids) {
        sendEvent(stoa, perShape(shapeOf, (queue) => (bulk(queue) ? null : deletion(queue, { message_id: id }))), userIds);
      }
    };
    announce(sortedIds(rows), audience);
    if (actor) announce(actorIds, [actor.id]);
  });
}

export const deleteMessageView = endpoint<{ message_id: number }>({
  params: { properties: { message_id: { type: 'integer' } }, required: ['message_id'] },
  view: ({ stoa, user, params }) => {
    const { row } = accessMessage(stoa, user, params.message_id);
    checkCanDelete(stoa, user, row);
    deleteMessages(stoa, user, [row]);
    return {};
  },
});

/** Zulip's batch for deleting a topic: each batch is its own transaction, newest messages first. */
const DELETE_TOPIC_BATCH_SIZE = 100;
/** After this long a request stops between batches and answers `complete: false`, as Zulip does. */
const DELETE_TOPIC_TIME_LIMIT_MS = 50_000;

/**
 * POST /streams/{stream_id}/delete_topic: administrators delete every message of a topic they
 * can read (in a channel with protected history, those in their own history). A large topic
 * goes in batches, each committed on its own with its events, with other requests served in
 * between; a request that runs out of time says so, and the client repeats it. Once the topic
 * is gone, the personal settings people kept for it go too, but for those who can still read
 * messages left in it.
 */
export const deleteTopicView = endpoint<{ stream_id: number; topic_name: string }>({
  params: {
    properties: { stream_id: { type: 'integer' }, topic_name: { type: 'string' } },
    required: ['stream_id', 'topic_name'],
  },
  pathPatterns: { stream_id: /^\d+$/ },
  authorize: requireAdministrator,
  view: async ({ stoa, user, params }) => {
    const channel = accessChannelById(stoa, user, params.stream_id, { need: 'content' });
    const topic = params.topic_name === EMPTY_TOPIC_DISPLAY_NAME ? '' : params.topic_name;
    const onlyOwnHistory = canReadChannelHistory(stoa, user, channel) ? undefined : user.id;
    const started = stoa.clock.now();
    for (;;) {
      const batch = stoa.messages.newestInTopic(channel.recipient_id, topic, DELETE_TOPIC_BATCH_SIZE, onlyOwnHistory);
      if (batch.length === 0) break;
      deleteMessages(stoa, user, batch);
      if (stoa.clock.now() - started >= DELETE_TOPIC_TIME_LIMIT_MS) return { complete: false };
      // Later batches commit on their own, after the requests waiting meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
    }
    write(stoa, () => {
      for (const setting of stoa.userTopics.forTopic(channel.id, topic)) {
        const keepsMessages = stoa.messages.newestInTopic(channel.recipient_id, topic, 1, setting.user_id).length > 0;
        if (!keepsMessages) setTopicVisibility(stoa, setting.user_id, channel, topic, VisibilityPolicy.INHERIT);
      }
    });
    return { complete: true };
  },
});
