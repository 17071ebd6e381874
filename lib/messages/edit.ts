import { createHash } from 'node:crypto';
import { claimAttachments } from '../uploads/actions';
import { presentAttachment } from '../uploads/present';
import type { AttachmentRow } from '../uploads/queries';
import { accessChannelById, administersChannel, hasContentAccess, holdsChannelSetting } from '../channels/access';
import { refreshFirstMessage } from '../channels/actions';
import type { ChannelRow } from '../channels/queries';
import { perShape, type EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import { endpoint } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import { realmSetting, userHasRealmPermission } from '../realm/settings-store';
import { withdrawPushNotifications } from '../push/actions';
import type { Stoa } from '../stoa';
import { Role, type UserRow } from '../users/queries';
import { accessMessage, canReadChannelHistory } from './access';
import { contentFlags, sendMessage, topicParticipants } from './actions';
import { checkCanCreateTopic, checkMentionPermissions, checkSendMessageGroup, checkTopicPolicy, normalizeContent, normalizeTopic } from './addressing';
import { CONTENT_FLAGS, Flag, flagNames } from './flags';

const MENTION_FLAGS = Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned;
import type { MessageRow } from './queries';
import { messageLink, noticeOptions, notificationBot, silentMention, topicLink } from './notices';
import { linksInTopic, renderContent } from './render';
import { moveTopicVisibility } from '../user-topics/actions';
import { topicKey, VisibilityPolicy } from '../user-topics/queries';
import { userSettings } from '../users/settings-store';
import { displayTopic, EMPTY_TOPIC_DISPLAY_NAME, RESOLVED_TOPIC_PREFIX, resolutionChange } from './topics';

type PropagateMode = 'change_one' | 'change_later' | 'change_all';

/** Zulip forgives this much lateness on edit time limits, for slow networks. */
const EDIT_LIMIT_GRACE_SECONDS = 20;

/** One entry of a message's edit history, newest first in storage and in the API. */
interface EditHistoryEntry {
  user_id: number;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

export function editHistoryOf(row: MessageRow): EditHistoryEntry[] {
  return row.edit_history === null ? [] : (JSON.parse(row.edit_history) as EditHistoryEntry[]);
}

function now(stoa: Stoa): number {
  return Math.floor(stoa.clock.now() / 1000);
}

function isModerator(user: UserRow): boolean {
  return user.role <= Role.MODERATOR;
}

/**
 * May the user change the message's content? Only its sender, while the organization allows
 * editing and within its time limit (plus a grace period for an edit begun in time; typing
 * notices for an edit get none).
 */
export function checkCanEditContent(stoa: Stoa, user: UserRow, row: MessageRow, graceSeconds = EDIT_LIMIT_GRACE_SECONDS): void {
  if (realmSetting(stoa, 'realm_allow_message_editing') !== true) {
    throw badRequest('Your organization has turned off message editing');
  }
  if (row.sender_id !== user.id) throw badRequest("You don't have permission to edit this message");
  const limit = realmSetting(stoa, 'realm_message_content_edit_limit_seconds') as number | null;
  if (limit !== null && now(stoa) - row.date_sent > limit + graceSeconds) {
    throw badRequest('The time limit for editing this message has passed');
  }
}

interface EditRequest {
  content?: string;
  topic?: string;
  target?: ChannelRow;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

/** The messages a move takes along: the one edited, those after it, or the whole topic. */
function messagesToMove(stoa: Stoa, actor: UserRow, row: MessageRow, edit: EditRequest): MessageRow[] {
  if (edit.propagateMode === 'change_one') return [row];
  const topic = stoa.messages.inTopic(row.recipient_id, row.topic);
  const chosen = edit.propagateMode === 'change_later' ? topic.filter((m) => m.id >= row.id) : topic;
  if (edit.target === undefined) return chosen;
  // A channel move takes only the messages the mover can read.
  const readsHistory = canReadChannelHistory(stoa, actor, stoa.channels.byId(row.stream_id!)!);
  return chosen.filter((m) => m.id === row.id || readsHistory || stoa.messages.flagsOf(actor.id, m.id) !== undefined);
}

/**
 * Zulip's can_move_messages_within_channel: administrators of the organization or of the
 * channel, and the channel's can_move_messages_within_channel_group.
 */
function movesWithinChannel(stoa: Stoa, actor: UserRow, channel: ChannelRow): boolean {
  return administersChannel(stoa, actor, channel) || holdsChannelSetting(stoa, actor, channel, 'can_move_messages_within_channel_group');
}

/**
 * Who may change a topic: the organization's permission, or the channel's, of the channel the
 * messages leave or (when they also change channel) the one they go to.
 */
function mayEditTopic(stoa: Stoa, actor: UserRow, origin: ChannelRow, destination: ChannelRow): boolean {
  return (
    userHasRealmPermission(stoa, actor, 'realm_can_move_messages_between_topics_group') ||
    movesWithinChannel(stoa, actor, origin) ||
    (destination.id !== origin.id && movesWithinChannel(stoa, actor, destination))
  );
}

/** Resolving: the organization's permission, or either channel's can_resolve_topics_group. */
function mayResolveTopics(stoa: Stoa, actor: UserRow, origin: ChannelRow, destination: ChannelRow): boolean {
  return (
    userHasRealmPermission(stoa, actor, 'realm_can_resolve_topics_group') ||
    holdsChannelSetting(stoa, actor, origin, 'can_resolve_topics_group') ||
    (destination.id !== origin.id && holdsChannelSetting(stoa, actor, destination, 'can_resolve_topics_group'))
  );
}

/**
 * Moving out of a channel: organization administrators, the organization's permission, the
 * channel's administrators and its can_move_messages_out_of_channel_group.
 */
function mayMoveOutOf(stoa: Stoa, actor: UserRow, origin: ChannelRow): boolean {
  return (
    userHasRealmPermission(stoa, actor, 'realm_can_move_messages_between_channels_group') ||
    administersChannel(stoa, actor, origin) ||
    holdsChannelSetting(stoa, actor, origin, 'can_move_messages_out_of_channel_group')
  );
}

/**
 * The permissions and time limits of a move, in Zulip's order: the topic (resolving asks only
 * the resolving permission, and no time limit), then the channel (leaving the old one, posting
 * in the new one, its time limit), then the whole topic's time limit.
 */
function checkMovePermissions(stoa: Stoa, actor: UserRow, row: MessageRow, edit: EditRequest): void {
  const origin = stoa.channels.byId(row.stream_id!)!;
  const destination = edit.target ?? origin;
  // Adding or removing the resolved mark counts as resolving even while changing channel.
  const resolving = edit.topic !== undefined && resolutionChange(row.topic, edit.topic) !== null;
  const limits: number[] = [];
  if (edit.topic !== undefined) {
    if (resolving) {
      if (!mayResolveTopics(stoa, actor, origin, destination)) {
        throw badRequest("You don't have permission to resolve topics in this channel.");
      }
    } else {
      if (!mayEditTopic(stoa, actor, origin, destination)) throw badRequest("You don't have permission to edit this message");
      const limit = realmSetting(stoa, 'realm_move_messages_within_stream_limit_seconds') as number | null;
      if (!isModerator(actor) && limit !== null) {
        if (now(stoa) - row.date_sent > limit + EDIT_LIMIT_GRACE_SECONDS) {
          throw badRequest("The time limit for editing this message's topic has passed.");
        }
        limits.push(limit);
      }
    }
  }
  if (edit.target !== undefined) {
    if (!mayMoveOutOf(stoa, actor, origin)) throw badRequest("You don't have permission to move this message");
    checkSendMessageGroup(stoa, actor, edit.target);
    const limit = realmSetting(stoa, 'realm_move_messages_between_streams_limit_seconds') as number | null;
    if (!isModerator(actor) && limit !== null) {
      if (now(stoa) - row.date_sent > limit + EDIT_LIMIT_GRACE_SECONDS) {
        throw badRequest("The time limit for editing this message's channel has passed");
      }
      limits.push(limit);
    }
  }
  if (edit.propagateMode === 'change_all' && !resolving && limits.length > 0) {
    // The topic as Zulip counts it here: all of it for someone who reads the channel's history,
    // else only the messages they have, so that the answer tells nothing of the others.
    const readsHistory = canReadChannelHistory(stoa, actor, origin);
    const counted = stoa.messages
      .inTopic(row.recipient_id, row.topic)
      .filter((m) => readsHistory || stoa.messages.flagsOf(actor.id, m.id) !== undefined);
    const oldest = now(stoa) - Math.min(...limits) - EDIT_LIMIT_GRACE_SECONDS;
    const allowed = counted.filter((m) => m.date_sent >= oldest);
    if (allowed.length < counted.length) {
      throw new ApiError(
        'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
        `You only have permission to move the ${allowed.length}/${counted.length} most recent messages in this topic.`,
        400,
        {
          first_message_id_allowed_to_move: allowed[0]?.id ?? null,
          total_messages_in_topic: counted.length,
          total_messages_allowed_to_move: allowed.length,
        },
      );
    }
  }
}

/**
 * Whether a move took the whole topic: all of it was asked for, or none of what the mover can
 * read is left behind (what they cannot read must not change what the notices say).
 */
function movedWholeTopic(stoa: Stoa, actor: UserRow, origin: ChannelRow, topic: string, edit: EditRequest): boolean {
  if (edit.propagateMode === 'change_all') return true;
  const readsHistory = canReadChannelHistory(stoa, actor, origin);
  const left = stoa.messages.inTopic(origin.recipient_id, topic);
  return !left.some((m) => readsHistory || stoa.messages.flagsOf(actor.id, m.id) !== undefined);
}

/**
 * Who gets a topic's resolved or unresolved notice already read, by each person's
 * resolved_topic_notice_auto_read_policy: 'always' everyone, 'except_followed' all but those
 * following the topic (before or after the move), 'never' nobody.
 */
function resolutionNoticeReadBy(
  stoa: Stoa,
  from: { channel: ChannelRow; topic: string },
  to: { channel: ChannelRow; topic: string },
): (userId: number) => boolean {
  const followers = new Set(
    [...stoa.userTopics.forTopic(from.channel.id, from.topic), ...stoa.userTopics.forTopic(to.channel.id, to.topic)]
      .filter((row) => row.visibility_policy === VisibilityPolicy.FOLLOWED)
      .map((row) => row.user_id),
  );
  return (userId) => {
    const policy = userSettings(stoa, stoa.users.byId(userId)!).resolved_topic_notice_auto_read_policy;
    return policy === 'always' || (policy === 'except_followed' && !followers.has(userId));
  };
}

/** The notification bot's notices of a move, in the old and the new topic, as Zulip words them. */
function announceMove(
  stoa: Stoa,
  actor: UserRow,
  from: { channel: ChannelRow; topic: string },
  to: { channel: ChannelRow; topic: string },
  moved: MessageRow[],
  edit: EditRequest,
  resolution: 'resolved' | 'unresolved' | null,
  hadMessagesThere: boolean,
  wholeTopic: boolean,
): void {
  const bot = notificationBot(stoa);
  const internal = noticeOptions((id) => id === actor.id);
  const who = silentMention(actor);
  if (resolution) {
    sendMessage(
      stoa,
      bot,
      { type: 'channel', channel: to.channel, topic: to.topic },
      `${who} has marked this topic as ${resolution}.`,
      noticeOptions(resolutionNoticeReadBy(stoa, from, to)),
    );
    return;
  }
  if (edit.notifyOldThread) {
    const where = topicLink(to.channel, to.topic);
    const text = wholeTopic
      ? `This topic was moved to ${where} by ${who}.`
      : moved.length === 1
        ? `A message was moved from this topic to ${where} by ${who}.`
        : `${moved.length} messages were moved from this topic to ${where} by ${who}.`;
    sendMessage(stoa, bot, { type: 'channel', channel: from.channel, topic: from.topic }, text, internal);
  }
  if (edit.notifyNewThread) {
    const where = topicLink(from.channel, from.topic);
    const text =
      wholeTopic && !hadMessagesThere
        ? `This topic was moved here from ${where} by ${who}.`
        : moved.length === 1
          ? `[A message](${messageLink(stoa, to.channel, to.topic, moved[0].id)}) was moved here from ${where} by ${who}.`
          : `${moved.length} messages were moved here from ${where} by ${who}.`;
    sendMessage(stoa, bot, { type: 'channel', channel: to.channel, topic: to.topic }, text, internal);
  }
}

/** Applies an edit or move and tells everyone concerned; the checks are done. */
export function editMessage(stoa: Stoa, actor: UserRow, row: MessageRow, edit: EditRequest, moved: MessageRow[]): AttachmentRow[] {
  return write(stoa, () => {
    let detached: AttachmentRow[] = [];
    const timestamp = now(stoa);
    const origin = row.stream_id === null ? undefined : stoa.channels.byId(row.stream_id)!;
    const target = edit.target ?? origin;
    const newTopic = edit.topic ?? row.topic;
    const isMove = edit.topic !== undefined || edit.target !== undefined;
    const resolution = edit.topic !== undefined && edit.target === undefined ? resolutionChange(row.topic, edit.topic) : null;
    const hadMessagesThere =
      isMove && target !== undefined && stoa.messages.firstInTopic(target.recipient_id, newTopic) !== undefined;
    const before = new Map(stoa.messages.holders(row.id).map((h) => [h.user_id, h.flags]));
    const audienceBefore = new Set(before.keys());

    const event: Record<string, unknown> = {
      type: 'update_message',
      user_id: actor.id,
      edit_timestamp: timestamp,
      message_id: row.id,
      message_ids: (isMove ? moved : [row]).map((m) => m.id).sort((a, b) => a - b),
      rendering_only: false,
    };
    if (origin) Object.assign(event, { stream_name: origin.name, stream_id: origin.id });
    if (isMove) Object.assign(event, { propagate_mode: edit.propagateMode, orig_subject: row.topic });
    if (edit.topic !== undefined) Object.assign(event, { subject: newTopic, topic_links: linksInTopic(stoa, newTopic) });
    if (edit.target !== undefined) event.new_stream_id = edit.target.id;

    if (edit.content !== undefined) {
      const holders = [...before.keys()];
      const sender = stoa.users.byId(row.sender_id)!;
      const words = [...new Set([...stoa.alertWords.foldedOfUsers(holders).values()].flat())];
      const rendered = renderContent(stoa, sender, edit.content, words);
      const participants =
        origin && rendered.mentionsTopicWildcard ? topicParticipants(stoa, row.recipient_id, row.topic, sender.id) : new Set<number>();
      checkMentionPermissions(stoa, sender, actor, rendered, origin, () => participants.size);
      const unmentioned: number[] = [];
      for (const [userId, bits] of contentFlags(stoa, sender.id, holders, rendered, participants)) {
        const flags = (before.get(userId)! & ~CONTENT_FLAGS) | bits;
        stoa.messages.setUserFlags(userId, row.id, flags);
        before.set(userId, flags);
        if (!(flags & MENTION_FLAGS)) unmentioned.push(userId);
      }
      // A channel message that no longer mentions someone no longer notifies them.
      if (origin) withdrawPushNotifications(stoa, unmentioned, [row.id]);
      const entry: EditHistoryEntry = {
        user_id: actor.id,
        timestamp,
        prev_content: row.content,
        prev_rendered_content: row.rendered_content,
      };
      stoa.messages.update(row.id, {
        content: edit.content,
        rendered_content: rendered.html,
        is_me_message: rendered.isMeMessage ? 1 : 0,
        has_link: rendered.hasLink ? 1 : 0,
        has_image: rendered.hasImage ? 1 : 0,
        has_attachment: rendered.hasAttachment ? 1 : 0,
        last_edit_time: timestamp,
        edit_history: JSON.stringify([entry, ...editHistoryOf(row)]),
      });
      detached = claimAttachments(stoa, sender, row.id, rendered.uploadPathIds);
      Object.assign(event, {
        orig_content: row.content,
        orig_rendered_content: row.rendered_content,
        content: edit.content,
        rendered_content: rendered.html,
        is_me_message: rendered.isMeMessage,
      });
    }

    if (isMove && target && origin) {
      for (const message of moved) {
        const current = message.id === row.id ? stoa.messages.byId(row.id)! : message;
        const entry: EditHistoryEntry = { user_id: actor.id, timestamp };
        if (edit.topic !== undefined) Object.assign(entry, { prev_topic: row.topic, topic: newTopic });
        if (edit.target !== undefined) Object.assign(entry, { prev_stream: origin.id, stream: target.id });
        stoa.messages.update(message.id, {
          topic: newTopic,
          stream_id: target.id,
          recipient_id: target.recipient_id,
          edit_history: JSON.stringify([entry, ...editHistoryOf(current)]),
          ...(resolution ? {} : { last_moved_time: timestamp }),
        });
      }
      if (edit.target !== undefined) {
        moveBetweenChannels(stoa, origin, target, moved);
        // Either channel may now start its history at another message.
        refreshFirstMessage(stoa, origin);
        refreshFirstMessage(stoa, stoa.channels.byId(target.id)!);
      }
    }
    const wholeTopic = isMove && origin !== undefined && movedWholeTopic(stoa, actor, origin, row.topic, edit);
    if (wholeTopic) {
      const canRead = (userId: number) => hasContentAccess(stoa, stoa.users.byId(userId)!, target!);
      const to = { channel: target!, topic: newTopic };
      moveTopicVisibility(stoa, { channel: origin!, topic: row.topic }, to, hadMessagesThere, canRead);
    }

    // Everyone who has the message hears, with their flags; a channel with shared history
    // also tells its subscribers who read it from there.
    const flagsFor = new Map(stoa.messages.holders(row.id).map((h) => [h.user_id, h.flags]));
    const audience = new Set(flagsFor.keys());
    for (const channel of [origin, target]) {
      if (channel?.history_public_to_subscribers) {
        for (const id of stoa.channels.subscriberIds(channel.recipient_id)) {
          const user = stoa.users.byId(id)!;
          if (hasContentAccess(stoa, user, target!)) audience.add(id);
        }
      }
    }
    audience.add(actor.id);
    for (const id of audienceBefore) if (flagsFor.has(id)) audience.add(id);
    const shaped = perShape(
      (queue: EventQueue) => `${flagsFor.get(queue.userId) ?? 'read'}|${queue.settings.capabilities.empty_topic_name}`,
      (queue: EventQueue) => {
        const bits = flagsFor.get(queue.userId);
        const shown: Record<string, unknown> = { ...event, flags: bits === undefined ? ['read'] : flagNames(bits) };
        const capable = queue.settings.capabilities.empty_topic_name;
        if (typeof shown.orig_subject === 'string') shown.orig_subject = displayTopic(shown.orig_subject, capable);
        if (typeof shown.subject === 'string') shown.subject = displayTopic(shown.subject, capable);
        return shown as { type: string };
      },
    );
    sendEvent(stoa, shaped, audience);

    if (isMove && origin && target) {
      const from = { channel: origin, topic: row.topic };
      const to = { channel: target, topic: newTopic };
      announceMove(stoa, actor, from, to, moved, edit, resolution, hadMessagesThere, wholeTopic);
    }
    return detached;
  });
}

/**
 * After a move to another channel: people who cannot read the new channel lose their copies
 * (and are told the messages are gone), and a channel without shared history gives its
 * subscribers copies, since they could not read the messages otherwise.
 */
function moveBetweenChannels(
  stoa: Stoa,
  origin: ChannelRow,
  target: ChannelRow,
  moved: MessageRow[],
): void {
  const lost = new Map<number, number[]>();
  for (const message of moved) {
    for (const userId of stoa.messages.holderIds(message.id)) {
      const user = stoa.users.byId(userId)!;
      if (hasContentAccess(stoa, user, target)) continue;
      lost.set(userId, [...(lost.get(userId) ?? []), message.id]);
    }
  }
  for (const [userId, ids] of lost) {
    withdrawPushNotifications(stoa, [userId], ids);
    for (const id of ids) stoa.messages.deleteUserMessage(userId, id);
    sendEvent(
      stoa,
      { type: 'delete_message', message_ids: [...ids].sort((a, b) => a - b), message_type: 'stream', stream_id: origin.id, topic: moved[0].topic },
      [userId],
    );
  }
  if (!target.history_public_to_subscribers) {
    for (const userId of stoa.channels.subscriberIds(target.recipient_id)) {
      for (const message of moved) {
        if (stoa.messages.flagsOf(userId, message.id) === undefined) stoa.messages.insertUserMessage(userId, message.id, Flag.read);
      }
    }
  }
}

interface EditParams {
  message_id: number;
  topic?: string;
  subject?: string;
  propagate_mode: PropagateMode;
  send_notification_to_old_thread: boolean;
  send_notification_to_new_thread: boolean;
  content?: string;
  stream_id?: number;
  prev_content_sha256?: string;
}

/**
 * A client that names the content it edited (prev_content_sha256, feature level 379) is
 * refused if someone changed the message since, instead of overwriting their edit.
 */
function checkPreviousContent(row: MessageRow, expected: string | undefined): void {
  if (expected === undefined || expected === createHash('sha256').update(row.content).digest('hex')) return;
  throw new ApiError('EXPECTATION_MISMATCH', "'prev_content_sha256' value does not match the expected value.", 400);
}

export const updateMessageView = endpoint<EditParams>({
  params: {
    properties: {
      message_id: { type: 'integer' },
      topic: { type: 'string' },
      subject: { type: 'string' },
      propagate_mode: { type: 'string', enum: ['change_one', 'change_later', 'change_all'], default: 'change_one' },
      send_notification_to_old_thread: { type: 'boolean', default: false },
      send_notification_to_new_thread: { type: 'boolean', default: true },
      content: { type: 'string' },
      stream_id: { type: 'integer', minimum: 0 },
      prev_content_sha256: { type: 'string' },
    },
    required: ['message_id'],
  },
  view: ({ stoa, user, params }) => {
    const { row } = accessMessage(stoa, user, params.message_id);
    if (params.content !== undefined) checkCanEditContent(stoa, user, row);
    let topic = (params.topic ?? params.subject)?.trim();
    if (topic === EMPTY_TOPIC_DISPLAY_NAME) topic = '';
    if (topic === row.topic) topic = undefined;
    // A stream_id naming the message's own channel still asks for a move, as on Zulip: its
    // permissions and limits apply, and it is recorded and announced like any other.
    const streamId = params.stream_id;
    if (params.content === undefined && topic === undefined && streamId === undefined) throw badRequest('Nothing to change');
    if (row.stream_id === null) {
      if (streamId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
      if (topic !== undefined) throw badRequest('Direct messages cannot have topics.');
    }
    if (params.propagate_mode !== 'change_one' && topic === undefined && streamId === undefined) {
      throw badRequest('Invalid propagate_mode without topic edit');
    }
    if (topic !== undefined) {
      if (topic === RESOLVED_TOPIC_PREFIX.trim() || topic === `${RESOLVED_TOPIC_PREFIX}${EMPTY_TOPIC_DISPLAY_NAME}`) {
        throw badRequest('General chat cannot be marked as resolved');
      }
      topic = normalizeTopic(topic);
    }
    if (streamId !== undefined && params.content !== undefined) {
      throw badRequest('Cannot change message content while changing channel');
    }
    // A widget's events refer to its options and tasks as sent; new content would not change them.
    if (params.content !== undefined && stoa.messages.hasSubmessages(row.id)) throw badRequest('Widgets cannot be edited.');
    checkPreviousContent(row, params.prev_content_sha256);
    const content =
      params.content === undefined ? undefined : params.content.trim() === '' ? '(deleted)' : normalizeContent(params.content);
    const target = streamId === undefined ? undefined : accessChannelById(stoa, user, streamId, { need: 'content' });
    const edit: EditRequest = {
      content,
      topic,
      target,
      propagateMode: params.propagate_mode,
      notifyOldThread: params.send_notification_to_old_thread,
      notifyNewThread: params.send_notification_to_new_thread,
    };
    let moved: MessageRow[] = [row];
    if (topic !== undefined || target !== undefined) {
      const destination = target ?? stoa.channels.byId(row.stream_id!)!;
      checkTopicPolicy(stoa, destination, topic ?? row.topic);
      moved = messagesToMove(stoa, user, row, edit);
      checkMovePermissions(stoa, user, row, edit);
      // Last, as on Zulip: moving into a topic that does not exist yet starts it; resolving a
      // topic does not count.
      const destinationTopic = topic ?? row.topic;
      const sameTopic = destination.id === row.stream_id && topicKey(destinationTopic) === row.topic_key;
      const resolving = target === undefined && topic !== undefined && resolutionChange(row.topic, topic) !== null;
      if (!sameTopic && !resolving) checkCanCreateTopic(stoa, user, destination, destinationTopic);
    } else if (row.stream_id !== null && row.topic !== '') {
      // Zulip checks the channel's topics policy on every edit: a message left in a named topic
      // of a channel that now takes only the empty topic cannot be edited there.
      checkTopicPolicy(stoa, stoa.channels.byId(row.stream_id)!, row.topic);
    }
    const detached = editMessage(stoa, user, row, edit, moved);
    return { detached_uploads: detached.map((attachment) => presentAttachment(stoa, attachment)) };
  },
});

/** GET /messages/{message_id}/history: every version of the message, oldest first. */
export const getMessageHistory = endpoint<{ message_id: number; allow_empty_topic_name: boolean }>({
  params: {
    properties: { message_id: { type: 'integer' }, allow_empty_topic_name: { type: 'boolean', default: false } },
    required: ['message_id'],
  },
  view: ({ stoa, user, params }) => {
    if (realmSetting(stoa, 'realm_message_edit_history_visibility_policy') === 'none') {
      throw badRequest('Message edit history is disabled in this organization');
    }
    const { row } = accessMessage(stoa, user, params.message_id);
    const shown = (topic: string) => displayTopic(topic, params.allow_empty_topic_name);
    const entries = editHistoryOf(row).reverse(); // oldest first
    // Walk back from the current state to the original, then forward again.
    let content = row.content;
    let rendered = row.rendered_content;
    let topic = row.topic;
    for (const entry of [...entries].reverse()) {
      if (entry.prev_content !== undefined) {
        content = entry.prev_content;
        rendered = entry.prev_rendered_content!;
      }
      if (entry.prev_topic !== undefined) topic = entry.prev_topic;
    }
    const history: Record<string, unknown>[] = [
      { topic: shown(topic), content, rendered_content: rendered, timestamp: row.date_sent, user_id: row.sender_id },
    ];
    for (const [index, entry] of entries.entries()) {
      const version: Record<string, unknown> = { user_id: entry.user_id, timestamp: entry.timestamp };
      if (entry.prev_topic !== undefined) {
        version.prev_topic = shown(entry.prev_topic);
        topic = entry.topic!;
      }
      if (entry.prev_content !== undefined) {
        version.prev_content = entry.prev_content;
        version.prev_rendered_content = entry.prev_rendered_content;
        // The content this edit produced: the next edit's previous content, or today's.
        const nextContentEdit = entries.slice(index + 1).find((e) => e.prev_content !== undefined);
        content = nextContentEdit ? nextContentEdit.prev_content! : row.content;
        rendered = nextContentEdit ? nextContentEdit.prev_rendered_content! : row.rendered_content;
        version.content_html_diff = `<div>${rendered}</div>`;
      }
      if (entry.prev_stream !== undefined) Object.assign(version, { prev_stream: entry.prev_stream, stream: entry.stream });
      Object.assign(version, { topic: shown(topic), content, rendered_content: rendered });
      history.push(version);
    }
    return { message_history: history };
  },
});
