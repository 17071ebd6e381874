import { claimAttachments } from '../uploads/actions';
import { queueOutgoingWebhooks } from '../bots/triggers';
import { queueMissedMessageEmails } from '../mail/missed-messages';
import { notifyMobileDevices } from '../push/actions';
import { refreshFirstMessage } from '../channels/actions';
import type { ChannelRow } from '../channels/queries';
import { perShape, type EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { announceUserAccessChanges, snapshotUserAccess } from '../users/access-events';
import { Role, type UserRow } from '../users/queries';
import { Flag, flagNames, HISTORICAL_VIEW_FLAGS } from './flags';
import { checkMentionPermissions } from './addressing';
import { matchesEventNarrow } from './narrow-events';
import { MessagePresenter, type MessageView } from './present';
import type { MessageRow } from './queries';
import { renderContent, type RenderedContent } from './render';
import { WIDGET_MSG_TYPE, widgetJson, widgetOfContent, type WidgetContent } from './widgets';

/** Where a message goes: a channel's topic, or a conversation of people. */
export type Addressee =
  | { type: 'channel'; channel: ChannelRow; topic: string }
  /** Everyone in the conversation but (possibly) the sender; the sender alone is a note to self. */
  | { type: 'direct'; users: readonly UserRow[] };

export interface SendOptions {
  /** The name of the client the message came from, e.g. ZulipPython. */
  client: string;
  /** Whether the sender's own copy starts read. */
  readBySender: boolean;
  /** Receivers for whom the message starts read (the notification bot's notices to whoever caused them). */
  alreadyReadBy?: (userId: number) => boolean;
  /** The sender's event queue and the ID its client gave the message, echoed in that queue's event. */
  local?: { queueId: string; localId: string };
  /** A widget given whole (POST /messages' widget_content), instead of any command in the content. */
  widget?: WidgetContent;
  /**
   * No push notification and no email for it (Zulip's disable_external_notifications): Welcome
   * Bot's messages are meant to be read in the app, not to call its reader back to it.
   */
  noExternalNotifications?: boolean;
}

/**
 * The recipient of a direct conversation: shared by everyone in it, whoever sends. Every
 * conversation is a direct message group, a note to oneself (one member) included, as Zulip's
 * are from level 482 on.
 */
function directRecipient(stoa: Stoa, participantIds: readonly number[]): number {
  const key = participantIds.join(',');
  return stoa.messages.directGroupRecipient(key) ?? stoa.messages.insertDirectGroup(key);
}

/**
 * The flags a message's content gives each receiver: mentions (direct or through a group),
 * wildcard mentions, and their alert words. Topic wildcards reach only the topic's participants.
 */
export function contentFlags(
  stoa: Stoa,
  senderId: number,
  receiverIds: readonly number[],
  rendered: RenderedContent,
  topicParticipants: ReadonlySet<number>,
): Map<number, number> {
  const alertWords = rendered.alertWordsFound.size > 0 ? stoa.alertWords.foldedOfUsers(receiverIds) : new Map<number, string[]>();
  const flags = new Map<number, number>();
  const groupIds = [...rendered.mentionedGroupIds];
  for (const userId of receiverIds) {
    let bits = 0;
    if (rendered.mentionedUserIds.has(userId) || groupIds.some((groupId) => stoa.groups.hasMember(groupId, userId))) {
      bits |= Flag.mentioned;
    }
    if (rendered.mentionsChannelWildcard) bits |= Flag.stream_wildcard_mentioned;
    if (rendered.mentionsTopicWildcard && topicParticipants.has(userId)) bits |= Flag.topic_wildcard_mentioned;
    if (userId !== senderId && alertWords.get(userId)?.some((word) => rendered.alertWordsFound.has(word))) {
      bits |= Flag.has_alert_word;
    }
    flags.set(userId, bits);
  }
  return flags;
}

/** Everyone who has posted or reacted in a channel topic, and the one posting now: who a topic wildcard reaches. */
export function topicParticipants(stoa: Stoa, recipientId: number, topic: string, authorId: number): Set<number> {
  const participants = new Set(stoa.messages.topicParticipants(recipientId, topic));
  participants.add(authorId);
  return participants;
}

/** Stores a message for everyone who receives it and tells their clients; returns its ID. */
export function sendMessage(stoa: Stoa, sender: UserRow, addressee: Addressee, content: string, options: SendOptions): number {
  return write(stoa, () => {
    let recipientId: number;
    let receiverIds: readonly number[];
    if (addressee.type === 'channel') {
      recipientId = addressee.channel.recipient_id;
      // Subscribers only: a sender outside the channel reads it through the channel's history.
      receiverIds = stoa.channels.subscriberIds(recipientId);
    } else {
      receiverIds = [...new Set([sender.id, ...addressee.users.map((u) => u.id)])].sort((a, b) => a - b);
      // A new conversation lets a guest in it see the others (can_access_all_users_group);
      // their clients hear of those people before the message arrives, as on Zulip.
      const ids = receiverIds;
      const accessBefore = snapshotUserAccess(stoa, () => ids);
      recipientId = directRecipient(stoa, receiverIds);
      announceUserAccessChanges(stoa, accessBefore);
    }
    const candidateWords = [...new Set([...stoa.alertWords.foldedOfUsers(receiverIds).values()].flat())];
    const rendered = renderContent(stoa, sender, content, candidateWords);
    const participants =
      addressee.type === 'channel' && rendered.mentionsTopicWildcard
        ? topicParticipants(stoa, recipientId, addressee.topic, sender.id)
        : new Set<number>();
    if (!sender.is_system_bot) {
      const channel = addressee.type === 'channel' ? addressee.channel : undefined;
      checkMentionPermissions(stoa, sender, sender, rendered, channel, () => participants.size);
    }
    const id = stoa.messages.insert({
      sender_id: sender.id,
      recipient_id: recipientId,
      stream_id: addressee.type === 'channel' ? addressee.channel.id : null,
      topic: addressee.type === 'channel' ? addressee.topic : '',
      content,
      rendered_content: rendered.html,
      date_sent: Math.floor(stoa.clock.now() / 1000),
      sending_client: options.client,
      is_me_message: rendered.isMeMessage ? 1 : 0,
      has_link: rendered.hasLink ? 1 : 0,
      has_image: rendered.hasImage ? 1 : 0,
      has_attachment: rendered.hasAttachment ? 1 : 0,
    });
    const flags = contentFlags(stoa, sender.id, receiverIds, rendered, participants);
    const muters = stoa.mutedUsers.mutersOf(sender.id);
    for (const [userId, bits] of flags) {
      let initial = bits;
      // A muted sender's messages reach whoever muted them already read: no unread, no notification.
      if (muters.has(userId)) initial |= Flag.read;
      if (addressee.type === 'direct') initial |= Flag.is_private;
      if (userId === sender.id && options.readBySender) initial |= Flag.read;
      if (options.alreadyReadBy?.(userId)) initial |= Flag.read;
      flags.set(userId, initial);
    }
    stoa.messages.insertUserMessages(id, flags);
    if (rendered.uploadPathIds.size > 0) claimAttachments(stoa, sender, id, rendered.uploadPathIds);
    // A widget's first submessage is the sender's, stored with the message so that the
    // message event already carries it (no submessage event is sent for it).
    const widget = options.widget ?? widgetOfContent(content);
    if (widget) {
      stoa.messages.insertSubmessage({ message_id: id, sender_id: sender.id, msg_type: WIDGET_MSG_TYPE, content: widgetJson(widget) });
    }
    // Only a channel's first message changes where its history starts.
    if (addressee.type === 'channel' && addressee.channel.first_message_id === null) refreshFirstMessage(stoa, addressee.channel);
    const row = stoa.messages.byId(id)!;
    announceMessage(stoa, row, flags, options.local);
    if (!options.noExternalNotifications) {
      notifyMobileDevices(stoa, row, flags);
      queueMissedMessageEmails(stoa, row, flags, { userIds: rendered.mentionedUserIds, groupIds: rendered.mentionedGroupIds });
    }
    queueOutgoingWebhooks(stoa, {
      id,
      sender,
      isChannel: addressee.type === 'channel',
      receiverIds,
      mentionedUserIds: rendered.mentionedUserIds,
      mentionedGroupIds: rendered.mentionedGroupIds,
    });
    return id;
  });
}

/**
 * Sends the `message` event to each receiver's queues, shaped per queue (Markdown or not,
 * client_gravatar, the empty topic) and filtered by the queue's narrow. Queues that want the
 * same shape share one event object, so it is serialized once.
 */
function announceMessage(
  stoa: Stoa,
  row: MessageRow,
  flags: ReadonlyMap<number, number>,
  local: SendOptions['local'],
): void {
  const presenter = new MessagePresenter(stoa);
  const sender = presenter.user(row.sender_id);
  // The sender hears of their message even without a copy of it (for local echo), with the
  // flags it has for them when fetched: read, from the channel's history.
  // Queues registered with all_public_streams get public channels' messages without flags,
  // if their user may read public channels (guests may not).
  const isPublic = row.stream_id !== null && stoa.channels.byId(row.stream_id)!.invite_only === 0;
  const followsPublic = (queue: EventQueue) =>
    isPublic && queue.settings.allPublicStreams && presenter.user(queue.userId).role !== Role.GUEST;
  const flagsOf = (queue: EventQueue) =>
    flags.get(queue.userId) ?? (queue.userId === sender.id ? HISTORICAL_VIEW_FLAGS : followsPublic(queue) ? 0 : undefined);
  const viewOf = (queue: EventQueue): MessageView => ({
    applyMarkdown: queue.settings.applyMarkdown,
    clientGravatar: queue.settings.clientGravatar,
    allowEmptyTopicName: queue.settings.capabilities.empty_topic_name,
    reactionTypeNames: queue.settings.reactionTypeNames,
  });
  // Bodies are shared between events that differ only in flags or local ID.
  const bodies = new Map<string, Record<string, unknown>>();
  const bodyShape = (queue: EventQueue) => {
    const view = viewOf(queue);
    const viewer = presenter.user(queue.userId);
    return `${view.applyMarkdown}|${view.allowEmptyTopicName}|${view.reactionTypeNames}|${stoa.avatars.clientComputes(() => viewer, sender, view.clientGravatar)}|${presenter.canSeeSender(viewer, sender.id)}`;
  };
  const bodyFor = (queue: EventQueue) => {
    const shape = bodyShape(queue);
    let body = bodies.get(shape);
    if (!body) bodies.set(shape, (body = presenter.presentOne(presenter.user(queue.userId), row, viewOf(queue))));
    return body;
  };
  const localIdOf = (queue: EventQueue) => (local && queue.id === local.queueId ? local.localId : undefined);
  const NOT_FOR_THIS_QUEUE = 'none';
  const eventShape = (queue: EventQueue) => {
    const bits = flagsOf(queue);
    if (bits === undefined || !matchesEventNarrow(stoa, queue.userId, queue.settings.narrow, row, bits)) return NOT_FOR_THIS_QUEUE;
    return `${bodyShape(queue)}|${bits}|${localIdOf(queue) ?? ''}`;
  };
  sendEvent(
    stoa,
    perShape(eventShape, (queue) => {
        const bits = flagsOf(queue);
        if (bits === undefined || eventShape(queue) === NOT_FOR_THIS_QUEUE) return null;
        const localId = localIdOf(queue);
        return {
          type: 'message',
          message: bodyFor(queue),
          flags: flagNames(bits),
          ...(localId === undefined ? {} : { local_message_id: localId }),
        };
      }),
    [row.sender_id, ...flags.keys(), ...(isPublic ? stoa.queues.usersFollowingPublicChannels() : [])],
  );
}
