import { attachmentsOfMessage, releaseAttachments } from '../uploads/actions';
import { refreshFirstMessage } from '../channels/actions';
import { holdsChannelSetting } from '../channels/access';
import { perShape, type EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import { realmSetting, userHasRealmPermission } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { accessMessage, messageAudience } from './access';
import type { MessageRow } from './queries';
import { displayTopic } from './topics';

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

/** Deletes a message for everyone, telling everyone who had it or could read it. */
export function deleteMessage(stoa: Stoa, actor: UserRow, row: MessageRow): void {
  write(stoa, () => {
    const audience = messageAudience(stoa, row);
    audience.add(actor.id);
    const channel = row.stream_id === null ? undefined : stoa.channels.byId(row.stream_id)!;
    const attachments = attachmentsOfMessage(stoa, row.id);
    stoa.messages.delete(row.id);
    releaseAttachments(stoa, attachments);
    if (channel) refreshFirstMessage(stoa, channel);
    const place = channel ? { message_type: 'stream', stream_id: channel.id } : { message_type: 'private' };
    // Clients declaring bulk_message_deletion get the list form; older ones one event per message.
    const topicFor = (queue: EventQueue) =>
      channel ? displayTopic(row.topic, queue.settings.capabilities.empty_topic_name) : undefined;
    const shaped = perShape(
      (queue) => `${queue.settings.capabilities.bulk_message_deletion}|${topicFor(queue)}`,
      (queue) => {
        const topic = topicFor(queue);
        return {
          type: 'delete_message',
          ...(queue.settings.capabilities.bulk_message_deletion ? { message_ids: [row.id] } : { message_id: row.id }),
          ...place,
          ...(topic === undefined ? {} : { topic }),
        };
      },
    );
    sendEvent(stoa, shaped, audience);
  });
}

export const deleteMessageView = endpoint<{ message_id: number }>({
  params: { properties: { message_id: { type: 'integer' } }, required: ['message_id'] },
  view: ({ stoa, user, params }) => {
    const { row } = accessMessage(stoa, user, params.message_id);
    checkCanDelete(stoa, user, row);
    deleteMessage(stoa, user, row);
    return {};
  },
});
