import { batch } from '@preact/signals';
import { onRealmExportEvent } from './admin/exports';
import { ApiError, get, leaveDeactivated, post } from './api';
import { takeEarlyRegistration } from './app/early';
import { requestRegistration, type RegisterAnswer, type SlimPresence, type UserTopic } from './register';
import { addArrivedMessage, announceArrival, applyRead, changeFeed, dropMutedFromCombinedFeed, feed, reloadFeed, removeMessages, selectedId, updateFeedMessages } from './messages/feed';
import { hashNames, narrowChannel, view } from './app/nav';
import { applyUserSettings, notifyAbout } from './app/notifications';
import { applyAlertWords } from './messages/alertWords';
import { applySavedSnippets, onSavedSnippetsEvent } from './compose/snippets';
import { unresolvedTopic } from './messages/resolved';
import { narrowHash } from './app/narrow';
import { forgetRecent, noteRecentMessage } from './views/recentConversations';
import {
  channels,
  connected,
  dmKey,
  dmKeyOf,
  drafts,
  localEchoes,
  placeOf,
  presences,
  realm,
  realmEmoji,
  recentDms,
  session,
  subscriptions,
  TopicPolicy,
  topicKey,
  topicPolicies,
  topics,
  typing,
  unread,
  unreadMentions,
  updateMap,
  userGroups,
  users,
  type UnreadPlace,
} from './state';
import type { Channel, Draft, Message, RealmEmoji, Subscription, User, UserGroup } from './types';
import { applyTopicRules } from './compose/state';
import { onRemindersEvent, onScheduledMessagesEvent, setReminders, setScheduledMessages } from './compose/scheduled';
import { applyChannelEvent, applyChannelRegister } from './channels/state';
import { applyBotEvent, applyBotRegister } from './bots/state';
import { invitesChanged } from './admin/invites-live';
import { applyPeopleState, onCustomProfileFieldsEvent, onMutedUsersEvent, onPresenceEnabledSetting, onUserStatusEvent } from './people/state';

/**
 * One event queue for the page: POST /json/register for the state, then long-polls of
 * GET /json/events. When the queue is lost (the server restarted, or it was idle too long)
 * it registers again and fetches the view again, so no message is missed.
 */

let queueId: string | null = null;
let lastEventId = -1;

export function currentQueueId(): string | null {
  return queueId;
}

/** Registers a queue (the first time with the answer the page asked for early) and takes the state it answers with. */
async function register(answer?: RegisterAnswer): Promise<void> {
  answer ??= await requestRegistration();
  const self = answer.user_id;
  batch(() => {
    queueId = answer.queue_id;
    lastEventId = answer.last_event_id;
    realm.value = {
      name: answer.realm_name,
      emojiDataUrl: answer.server_emoji_data_url,
      maxFileUploadMib: answer.max_file_upload_size_mib ?? 25,
      maxMessageLength: answer.max_message_length ?? 10000,
      isAdmin: answer.is_admin,
      isOwner: answer.is_owner,
      featureLevel: answer.zulip_feature_level,
    };
    // The system bots (Notification Bot, Welcome Bot) write direct messages too; they are named by cross_realm_bots.
    users.value = new Map([...answer.realm_users, ...(answer.realm_non_active_users ?? []), ...(answer.cross_realm_bots ?? [])].map((u) => [u.user_id, u]));
    subscriptions.value = new Map(answer.subscriptions.map((s) => [s.stream_id, s]));
    channels.value = new Map(
      [...(answer.streams ?? []), ...(answer.never_subscribed ?? []), ...answer.subscriptions].map((c) => [c.stream_id, c as Channel]),
    );
    const places = new Map<number, UnreadPlace>();
    for (const entry of answer.unread_msgs.streams) {
      for (const id of entry.unread_message_ids) places.set(id, { kind: 'channel', channelId: entry.stream_id, topic: entry.topic });
    }
    for (const entry of answer.unread_msgs.pms) {
      for (const id of entry.unread_message_ids) places.set(id, { kind: 'dm', key: dmKey([entry.other_user_id], self) });
    }
    for (const entry of answer.unread_msgs.huddles) {
      for (const id of entry.unread_message_ids) places.set(id, { kind: 'dm', key: dmKey(entry.user_ids_string.split(',').map(Number), self) });
    }
    unread.value = places;
    unreadMentions.value = new Set(answer.unread_msgs.mentions);
    recentDms.value = answer.recent_private_conversations
      .map((c) => ({ userIds: [...c.user_ids].sort((a, b) => a - b), maxMessageId: c.max_message_id }))
      .sort((a, b) => b.maxMessageId - a.maxMessageId);
    presences.value = new Map(Object.entries(answer.presences).map(([id, p]) => [Number(id), { active: p.active_timestamp, idle: p.idle_timestamp }]));
    presenceLastUpdateId = answer.presence_last_update_id ?? -1;
    realmEmoji.value = new Map(Object.entries(answer.realm_emoji));
    userGroups.value = new Map((answer.realm_user_groups ?? []).map((g) => [g.id, g]));
    if (answer.user_settings) applyUserSettings(answer.user_settings);
    applyAlertWords(answer.alert_words);
    applyPeopleState(answer);
    drafts.value = new Map((answer.drafts ?? []).map((d) => [d.id, d]));
    applySavedSnippets(answer.saved_snippets);
    setScheduledMessages(answer.scheduled_messages);
    setReminders(answer.reminders);
    applyTopicRules(answer as unknown as Record<string, unknown>);
    applyChannelRegister(answer as unknown as Record<string, unknown>);
    applyBotRegister(answer as unknown as Record<string, unknown>);
    topicPolicies.value = new Map((answer.user_topics ?? []).map((t) => [topicKey(t.stream_id, t.topic_name), t.visibility_policy]));
    topics.value = new Map();
  });
}

let stopped = false;

/** The early registration's answer, or a new registration when there was none or it failed. */
async function firstRegistration(): Promise<void> {
  const early = takeEarlyRegistration();
  let answer: RegisterAnswer | undefined;
  try {
    answer = await early;
  } catch {
    // Registered again below.
  }
  await register(answer);
}

/** Registers and keeps polling until the page goes away; `onReady` runs after the first registration. */
export async function startEvents(onReady: () => void): Promise<void> {
  await firstRegistration();
  onReady();
  void pollLoop();
  startPresence();
}

async function pollLoop(): Promise<void> {
  let failures = 0;
  while (!stopped) {
    try {
      const answer = await get<{ events: Array<Record<string, unknown>> }>('/json/events', { queue_id: queueId ?? '', last_event_id: lastEventId });
      failures = 0;
      connected.value = true;
      for (const event of answer.events) {
        lastEventId = Math.max(lastEventId, Number(event.id));
        try {
          applyEvent(event);
        } catch (err) {
          console.error('event not applied', event, err);
        }
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        // A deactivated account has already been sent to the login page that says so (api.ts).
        if (err.code !== 'USER_DEACTIVATED') location.assign('/login');
        return;
      }
      if (err instanceof ApiError && err.code === 'BAD_EVENT_QUEUE_ID') {
        // The queue is gone (a restart, or too long asleep): start over without losing messages.
        try {
          await register();
          connected.value = true;
          await reloadFeed();
          continue;
        } catch {
          // The server is not back yet; wait as for any other failure.
        }
      }
      connected.value = false;
      failures++;
      await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 500 * 2 ** Math.min(failures, 5))));
    }
  }
}

/**
 * The newest presence change this client holds (from /register, then from each report's
 * answer). Each report sends it, as Zulip's web app does, and is answered with only what
 * changed since, instead of everyone's presence every minute.
 */
let presenceLastUpdateId = -1;

/** Reports presence now and every minute, and reads what changed in everyone's. */
function startPresence(): void {
  const report = async () => {
    try {
      const answer = await post<{
        presences?: Record<string, SlimPresence>;
        presence_last_update_id?: number;
      }>('/json/users/me/presence', {
        status: document.hasFocus() ? 'active' : 'idle',
        new_user_input: document.hasFocus(),
        slim_presence: true,
        last_update_id: presenceLastUpdateId,
      });
      if (answer.presences) mergePresences(answer.presences);
      if (answer.presence_last_update_id !== undefined) presenceLastUpdateId = answer.presence_last_update_id;
    } catch {
      // Presence is best effort.
    }
  };
  void report();
  setInterval(report, 60_000);
}

function mergePresences(changes: Record<string, SlimPresence>): void {
  updateMap(presences, (copy) => {
    for (const [id, p] of Object.entries(changes)) copy.set(Number(id), { active: p.active_timestamp, idle: p.idle_timestamp });
  });
}

function rememberTopic(channelId: number, topic: string, messageId: number): void {
  const list = topics.value.get(channelId);
  if (!list) return;
  const rest = list.filter((t) => t.name.toLowerCase() !== topic.toLowerCase());
  updateMap(topics, (copy) => copy.set(channelId, [{ name: topic, maxId: messageId }, ...rest]));
}

/** Fetches a channel's topics for the sidebar. */
export async function loadTopics(channelId: number): Promise<void> {
  const answer = await get<{ topics: Array<{ name: string; max_id: number }> }>(`/json/users/me/${channelId}/topics`);
  updateMap(topics, (copy) => copy.set(channelId, answer.topics.map((t) => ({ name: t.name, maxId: t.max_id }))));
}

function onMessage(event: { message: Message; flags: string[]; local_message_id?: string }): void {
  const self = session.value?.user_id ?? 0;
  const message: Message = { ...event.message, flags: event.flags };
  batch(() => {
    if (event.local_message_id) localEchoes.value = localEchoes.value.filter((echo) => echo.local_id !== event.local_message_id);
    if (!event.flags.includes('read')) {
      updateMap(unread, (copy) => copy.set(message.id, placeOf(message, self)));
      if (event.flags.some((flag) => flag === 'mentioned' || flag.endsWith('wildcard_mentioned'))) {
        unreadMentions.value = new Set([...unreadMentions.value, message.id]);
      }
    }
    if (message.type === 'stream' && message.stream_id !== undefined) rememberTopic(message.stream_id, message.subject, message.id);
    else {
      const key = dmKeyOf(message, self);
      const others = key === String(self) ? [] : key.split(',').map(Number);
      recentDms.value = [{ userIds: others, maxMessageId: message.id }, ...recentDms.value.filter((c) => dmKey(c.userIds, self) !== key)];
    }
    const before = feed.value;
    changeFeed(addArrivedMessage(message, self));
    const inView = feed.value !== before || before.messages.some((m) => m.id === message.id);
    if (feed.value !== before && message.sender_id !== self) announceArrival(message);
    // A message sent from this page, shown in the view, becomes the selected one, as in Zulip:
    // the reader is taken to it, and its actions (e to edit it) are at hand.
    if (event.local_message_id && inView) selectedId.value = message.id;
    noteRecentMessage(message);
    removeTyping(message.sender_id);
    if (message.sender_id !== self) notifyAbout(message, event.flags, inView && view.value.kind === 'narrow');
  });
}

function onUpdateMessage(event: Record<string, unknown>): void {
  const ids = new Set((event.message_ids as number[] | undefined) ?? [event.message_id as number]);
  const newTopic = event.subject as string | undefined;
  const newChannel = event.new_stream_id as number | undefined;
  const edited = event.message_id as number | undefined;
  const rendered = event.rendered_content as string | undefined;
  // Resolving or unresolving a topic renames it, but the messages do not count as moved.
  const fromTopic = event.orig_subject as string | undefined;
  const resolution =
    newChannel === undefined && newTopic !== undefined && fromTopic !== undefined && unresolvedTopic(newTopic) === unresolvedTopic(fromTopic);
  const moved = (newTopic !== undefined || newChannel !== undefined) && !resolution;
  batch(() => {
    updateFeedMessages((m) => {
      if (!ids.has(m.id)) return m;
      const next = { ...m };
      if (moved) next.last_moved_timestamp = event.edit_timestamp as number;
      if (newTopic !== undefined) next.subject = newTopic;
      if (newChannel !== undefined) {
        next.stream_id = newChannel;
        next.display_recipient = channels.value.get(newChannel)?.name ?? String(next.display_recipient);
      }
      if (m.id === edited && rendered !== undefined) {
        next.content = rendered;
        // The search's marked copy is of the old text.
        next.match_content = undefined;
        next.last_edit_timestamp = event.edit_timestamp as number;
      }
      return next;
    });
    if (newTopic !== undefined || newChannel !== undefined) {
      updateMap(unread, (copy) => {
        for (const id of ids) {
          const place = copy.get(id);
          if (place?.kind !== 'channel') continue;
          copy.set(id, { kind: 'channel', channelId: newChannel ?? place.channelId, topic: newTopic ?? place.topic });
        }
      });
      // The topic lists of the channels involved are fetched again.
      const affected = [event.stream_id as number | undefined, newChannel].filter((id): id is number => id !== undefined);
      for (const id of affected) if (topics.value.has(id)) void loadTopics(id);
    }
  });
  if (newTopic !== undefined || newChannel !== undefined) forgetRecent();
  if ((newTopic !== undefined || newChannel !== undefined) && event.propagate_mode !== 'change_one') followMovedTopic(event);
}

/** A view of a topic that was moved as a whole goes where the topic went, as in Zulip. */
function followMovedTopic(event: Record<string, unknown>): void {
  const open = narrowChannel(feed.value.terms);
  const fromChannel = event.stream_id as number | undefined;
  const fromTopic = event.orig_subject as string | undefined;
  if (!open || open.topic === undefined || fromTopic === undefined || feed.value.terms.length !== 2) return;
  if (open.channelId !== fromChannel || open.topic.toLowerCase() !== fromTopic.toLowerCase()) return;
  const terms = [
    { operator: 'channel', operand: String((event.new_stream_id as number | undefined) ?? fromChannel) },
    { operator: 'topic', operand: (event.subject as string | undefined) ?? fromTopic },
  ];
  // Replaced rather than added, so that Back does not return to the emptied topic.
  location.replace(narrowHash(terms, hashNames));
}

function onDeleteMessage(event: Record<string, unknown>): void {
  const ids = new Set((event.message_ids as number[] | undefined) ?? [event.message_id as number]);
  batch(() => {
    changeFeed(removeMessages(ids));
    applyRead([...ids]);
  });
}

function onReaction(event: Record<string, unknown>): void {
  const reaction = {
    emoji_name: event.emoji_name as string,
    emoji_code: event.emoji_code as string,
    reaction_type: event.reaction_type as string,
    user_id: event.user_id as number,
  };
  updateFeedMessages((m) => {
    if (m.id !== event.message_id) return m;
    const others = m.reactions.filter(
      (r) => !(r.user_id === reaction.user_id && r.emoji_code === reaction.emoji_code && r.reaction_type === reaction.reaction_type),
    );
    return { ...m, reactions: event.op === 'add' ? [...others, reaction] : others };
  });
}

interface SubmessageEvent {
  message_id: number;
  submessage_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

/** A widget's event (a vote, a new task...): added to its message, whose widget is drawn again from them. */
function applySubmessage(event: SubmessageEvent): void {
  const submessage = { id: event.submessage_id, message_id: event.message_id, sender_id: event.sender_id, msg_type: event.msg_type, content: event.content };
  updateFeedMessages((m) => {
    if (m.id !== event.message_id || m.submessages?.some((s) => s.id === submessage.id)) return m;
    return { ...m, submessages: [...(m.submessages ?? []), submessage] };
  });
}

function onFlags(event: Record<string, unknown>): void {
  const flag = event.flag as string;
  const ids = event.messages as number[];
  const adding = event.op === 'add';
  const self = session.value?.user_id ?? 0;
  batch(() => {
    if (flag === 'read' && adding) {
      if (event.all) {
        unread.value = new Map();
        unreadMentions.value = new Set();
      } else applyRead(ids);
    } else if (flag === 'read') {
      const details = (event.message_details ?? {}) as Record<string, { type: string; stream_id?: number; topic?: string; user_ids?: number[]; mentioned?: boolean }>;
      updateMap(unread, (copy) => {
        for (const id of ids) {
          const detail = details[id];
          if (!detail) continue;
          copy.set(
            id,
            detail.type === 'stream'
              ? { kind: 'channel', channelId: detail.stream_id ?? 0, topic: detail.topic ?? '' }
              : { kind: 'dm', key: dmKey(detail.user_ids ?? [], self) },
          );
        }
      });
      const mentioned = ids.filter((id) => details[id]?.mentioned);
      if (mentioned.length) unreadMentions.value = new Set([...unreadMentions.value, ...mentioned]);
    }
    const set = new Set(ids);
    updateFeedMessages((m) => {
      if (!(event.all || set.has(m.id))) return m;
      const has = m.flags.includes(flag);
      if (adding === has) return m;
      return { ...m, flags: adding ? [...m.flags, flag] : m.flags.filter((f) => f !== flag) };
    });
  });
}

/** Channels' subscriber counts moved by `change` (others joining or leaving, or oneself leaving). */
function countSubscribers(streamIds: number[], change: number): void {
  const moved = <T extends { subscriber_count?: number }>(channel: T): T =>
    channel.subscriber_count === undefined ? channel : { ...channel, subscriber_count: Math.max(0, channel.subscriber_count + change) };
  updateMap(subscriptions, (copy) => {
    for (const id of streamIds) {
      const sub = copy.get(id);
      if (sub) copy.set(id, moved(sub));
    }
  });
  updateMap(channels, (copy) => {
    for (const id of streamIds) {
      const channel = copy.get(id);
      if (channel) copy.set(id, moved(channel));
    }
  });
}

function onSubscription(event: Record<string, unknown>): void {
  switch (event.op) {
    case 'add':
      updateMap(subscriptions, (copy) => {
        for (const sub of event.subscriptions as Subscription[]) copy.set(sub.stream_id, sub);
      });
      updateMap(channels, (copy) => {
        for (const sub of event.subscriptions as Subscription[]) copy.set(sub.stream_id, sub as Channel);
      });
      break;
    case 'remove':
      updateMap(subscriptions, (copy) => {
        for (const sub of event.subscriptions as Array<{ stream_id: number }>) copy.delete(sub.stream_id);
      });
      countSubscribers((event.subscriptions as Array<{ stream_id: number }>).map((sub) => sub.stream_id), -1);
      break;
    case 'peer_add':
    case 'peer_remove':
      countSubscribers(event.stream_ids as number[], (event.op === 'peer_add' ? 1 : -1) * (event.user_ids as number[]).length);
      break;
    case 'update':
      updateMap(subscriptions, (copy) => {
        const sub = copy.get(event.stream_id as number);
        if (sub) copy.set(sub.stream_id, { ...sub, [event.property as string]: event.value });
      });
      if (event.property === 'is_muted') dropMutedFromCombinedFeed();
      break;
  }
}

function onUserTopic(event: UserTopic): void {
  updateMap(topicPolicies, (copy) => {
    const key = topicKey(event.stream_id, event.topic_name);
    if (event.visibility_policy === TopicPolicy.inherit) copy.delete(key);
    else copy.set(key, event.visibility_policy);
  });
  dropMutedFromCombinedFeed();
}

function onDrafts(event: Record<string, unknown>): void {
  updateMap(drafts, (copy) => {
    if (event.op === 'add') for (const draft of event.drafts as Draft[]) copy.set(draft.id, draft);
    else if (event.op === 'update') copy.set((event.draft as Draft).id, event.draft as Draft);
    else if (event.op === 'remove') copy.delete(event.draft_id as number);
  });
}

const STREAM_UPDATE_EXTRAS = ['rendered_description', 'history_public_to_subscribers', 'is_web_public'];

function onStream(event: Record<string, unknown>): void {
  if (event.op === 'create') {
    updateMap(channels, (copy) => {
      for (const channel of event.streams as Channel[]) copy.set(channel.stream_id, channel);
    });
  } else if (event.op === 'delete') {
    updateMap(channels, (copy) => {
      for (const channel of event.streams as Channel[]) copy.delete(channel.stream_id);
    });
  } else if (event.op === 'update') {
    const id = event.stream_id as number;
    // Some updates carry what follows from the change beside it (a description's rendering,
    // a privacy change's history and web-public settings).
    const change: Record<string, unknown> = { [event.property as string]: event.value };
    for (const key of STREAM_UPDATE_EXTRAS) if (key in event) change[key] = event[key];
    updateMap(channels, (copy) => {
      const channel = copy.get(id);
      if (channel) copy.set(id, { ...channel, ...change });
    });
    updateMap(subscriptions, (copy) => {
      const sub = copy.get(id);
      if (sub) copy.set(id, { ...sub, ...change });
    });
  }
}

/** The key of the conversation a typing notice is about (see state.typing). */
export function typingKey(kind: 'stream', channelId: number, topic: string): string;
export function typingKey(kind: 'dm', key: string): string;
export function typingKey(kind: 'stream' | 'dm', a: number | string, topic?: string): string {
  return kind === 'stream' ? `stream:${a}:${(topic ?? '').toLowerCase()}` : `dm:${a}`;
}

const typingTimers = new Map<number, ReturnType<typeof setTimeout>>();

function removeTyping(userId: number): void {
  const next = new Map<string, number[]>();
  let changed = false;
  for (const [key, ids] of typing.value) {
    const rest = ids.filter((id) => id !== userId);
    if (rest.length !== ids.length) changed = true;
    if (rest.length) next.set(key, rest);
  }
  if (changed) typing.value = next;
}

function onTyping(event: Record<string, unknown>): void {
  const self = session.value?.user_id ?? 0;
  const sender = (event.sender as { user_id: number }).user_id;
  if (sender === self) return;
  const key =
    event.message_type === 'stream'
      ? typingKey('stream', event.stream_id as number, event.topic as string)
      : typingKey('dm', dmKey([...(event.recipients as Array<{ user_id: number }>).map((r) => r.user_id)], self));
  removeTyping(sender);
  clearTimeout(typingTimers.get(sender));
  if (event.op === 'start') {
    updateMap(typing, (copy) => copy.set(key, [...(copy.get(key) ?? []), sender]));
    // A sender who stops without saying so is forgotten after Zulip's 15 seconds.
    typingTimers.set(
      sender,
      setTimeout(() => removeTyping(sender), 15_000),
    );
  }
}

/** A `realm_user` update of one profile field comes as `custom_profile_field`; it goes into `profile_data`. */
function withProfileChange(user: User & { custom_profile_field?: { id: number; value: string | null; rendered_value?: string } }): User {
  const change = user.custom_profile_field;
  if (!change) return user;
  const { custom_profile_field: _, ...rest } = user;
  const profileData = { ...rest.profile_data };
  if (change.value === null) delete profileData[change.id];
  else profileData[change.id] = { value: change.value, rendered_value: change.rendered_value };
  return { ...rest, profile_data: profileData };
}

function onRealmUser(event: Record<string, unknown>): void {
  const person = event.person as Partial<User> & { user_id: number };
  updateMap(users, (copy) => {
    if (event.op === 'add') copy.set(person.user_id, person as User);
    else if (event.op === 'remove') {
      const user = copy.get(person.user_id);
      if (user) copy.set(user.user_id, { ...user, is_active: false });
    } else if (event.op === 'update') {
      const user = copy.get(person.user_id);
      // A new API email comes as `new_email`.
      const { new_email: newEmail, ...change } = person as typeof person & { new_email?: string };
      if (user) copy.set(user.user_id, withProfileChange({ ...user, ...change, ...(newEmail === undefined ? {} : { email: newEmail }) }));
    }
  });
  // Deactivated by an administrator: the server refuses the page from now on, so leave and say why.
  if (event.op === 'update' && person.user_id === session.value?.user_id && person.is_active === false) leaveDeactivated();
  // One's own new role shows or hides the organization's settings at once.
  if (event.op === 'update' && person.user_id === session.value?.user_id && typeof person.role === 'number') {
    realm.value = { ...realm.value, isAdmin: person.role <= 200, isOwner: person.role === 100 };
  }
}

function onUserGroup(event: Record<string, unknown>): void {
  updateMap(userGroups, (copy) => {
    if (event.op === 'add') {
      const group = event.group as UserGroup;
      copy.set(group.id, group);
    } else if (event.op === 'remove') copy.delete(event.group_id as number);
    else if (event.op === 'update') {
      const group = copy.get(event.group_id as number);
      if (group) copy.set(group.id, { ...group, ...(event.data as Partial<UserGroup>) });
    } else {
      // Members and subgroups come and go by ID lists.
      const group = copy.get(event.group_id as number);
      const members = new Set(group?.members ?? []);
      const subgroups = new Set(group?.direct_subgroup_ids ?? []);
      if (event.op === 'add_members') for (const id of event.user_ids as number[]) members.add(id);
      if (event.op === 'remove_members') for (const id of event.user_ids as number[]) members.delete(id);
      if (event.op === 'add_subgroups') for (const id of event.direct_subgroup_ids as number[]) subgroups.add(id);
      if (event.op === 'remove_subgroups') for (const id of event.direct_subgroup_ids as number[]) subgroups.delete(id);
      if (group) copy.set(group.id, { ...group, members: [...members], direct_subgroup_ids: [...subgroups] });
    }
  });
}

function applyEvent(event: Record<string, unknown>): void {
  applyChannelEvent(event);
  applyBotEvent(event);
  switch (event.type) {
    case 'message':
      return onMessage(event as unknown as { message: Message; flags: string[]; local_message_id?: string });
    case 'update_message':
      return onUpdateMessage(event);
    case 'delete_message':
      return onDeleteMessage(event);
    case 'reaction':
      return onReaction(event);
    case 'submessage':
      return applySubmessage(event as unknown as SubmessageEvent);
    case 'update_message_flags':
      return onFlags(event);
    case 'subscription':
      return onSubscription(event);
    case 'stream':
      return onStream(event);
    case 'typing':
      return onTyping(event);
    case 'presence':
      return mergePresences(event.presences as Record<string, SlimPresence>);
    case 'realm_user':
      return onRealmUser(event);
    case 'user_settings':
      if (event.op === 'update') applyUserSettings({ [event.property as string]: event.value });
      if (event.op === 'update' && event.property === 'presence_enabled') onPresenceEnabledSetting(event.value);
      return;
    case 'alert_words':
      return applyAlertWords(event.alert_words);
    case 'user_status':
      return onUserStatusEvent(event);
    case 'muted_users':
      return onMutedUsersEvent(event);
    case 'custom_profile_fields':
      return onCustomProfileFieldsEvent(event);
    case 'user_group':
      return onUserGroup(event);
    case 'realm':
      if (event.op === 'update' && event.property === 'name') realm.value = { ...realm.value, name: event.value as string };
      if (event.op === 'update_dict') applyTopicRules(event.data as Record<string, unknown>);
      return;
    case 'user_topic':
      return onUserTopic(event as unknown as UserTopic);
    case 'reminders':
      return onRemindersEvent(event);
    case 'saved_snippets':
      return onSavedSnippetsEvent(event);
    case 'drafts':
      return onDrafts(event);
    case 'scheduled_messages':
      return onScheduledMessagesEvent(event);
    case 'realm_export':
      return onRealmExportEvent(event);
    case 'realm_emoji':
      realmEmoji.value = new Map(Object.entries(event.realm_emoji as Record<string, RealmEmoji>));
      return;
    case 'invites_changed':
      invitesChanged.value += 1;
      return;
    case 'restart':
      return;
  }
}
