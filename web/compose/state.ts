import { avatarUrlOf } from '../people/avatar-url';
import { signal } from '@preact/signals';
import { del, patch, post } from '../api';
import { feed, feedTerms, matchesNarrow } from '../messages/feed';
import { currentQueueId } from '../live';
import { goTo, goToNarrow, narrowChannel, narrowDm, view } from '../app/nav';
import { channelByName, channelName, localEchoes, realm, session, userName, users } from '../state';
import type { Channel, Draft, Message, Subscription } from '../types';

/** What the compose box holds; keyboard shortcuts and reply buttons fill it. */
export interface ComposeState {
  open: boolean;
  kind: 'channel' | 'dm';
  channel: string;
  topic: string;
  /** The other people of a direct message. */
  recipients: number[];
  content: string;
  /** The draft this text was restored from, deleted once the message is sent. */
  draftId?: number;
  /** The scheduled message being edited: scheduling changes it, sending now replaces it. */
  scheduledId?: number;
}

const EMPTY_COMPOSE: ComposeState = { open: false, kind: 'channel', channel: '', topic: '', recipients: [], content: '' };
export const compose = signal<ComposeState>(EMPTY_COMPOSE);

/** The fields of the compose box that can take the focus when it opens. */
export type ComposeField = 'message' | 'topic' | 'channel' | 'recipients';
/** A new value asks the compose box to focus `field`. */
export const composeFocus = signal<{ count: number; field: ComposeField }>({ count: 0, field: 'message' });

/**
 * The organization's rule for the empty topic (`realm_topics_policy`) and the name it is shown
 * under (`realm_empty_topic_display_name`), from the registration and realm events.
 */
export const topicRules = signal({ policy: 'allow_empty_topic', emptyTopicName: 'general chat' });

/** Applies the realm's fields (the registration, or an update_dict event's data) that concern topics. */
export function applyTopicRules(data: Record<string, unknown>): void {
  const policy = data.realm_topics_policy ?? data.topics_policy;
  const name = data.realm_empty_topic_display_name;
  if (typeof policy !== 'string' && typeof name !== 'string') return;
  topicRules.value = {
    policy: typeof policy === 'string' ? policy : topicRules.value.policy,
    emptyTopicName: typeof name === 'string' ? name : topicRules.value.emptyTopicName,
  };
}

/** The channel's topics policy, its own or, when it inherits, the organization's. */
function topicsPolicy(channel: Channel | Subscription | undefined): string {
  const own = channel?.topics_policy;
  return own && own !== 'inherit' ? own : topicRules.value.policy;
}

/** Whether a message may go to the channel's empty topic, as Zulip decides. */
export function emptyTopicAllowed(channel: Channel | Subscription | undefined): boolean {
  return topicsPolicy(channel) !== 'disable_empty_topic';
}

/** Whether the channel takes only the empty topic (its topic field is then left out). */
export function onlyEmptyTopic(channel: Channel | Subscription | undefined): boolean {
  return topicsPolicy(channel) === 'empty_topic_only';
}

/** The topic a channel message goes to: as typed, or the empty topic where it is the only one. */
export function topicToSend(state: ComposeState, channel: Channel | Subscription | undefined): string {
  return onlyEmptyTopic(channel) ? '' : state.topic.trim();
}

/** A message's length as the server counts it: characters, not UTF-16 code units. */
export function charactersIn(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Why the compose box cannot be sent as it is (Zulip's words) and the field to fix; undefined
 * when it can. Sending and scheduling both ask.
 */
export function composeProblem(state: ComposeState): { text: string; field: ComposeField } | undefined {
  const max = realm.value.maxMessageLength;
  if (charactersIn(state.content) > max) return { text: `Message length shouldn't be greater than ${max} characters.`, field: 'message' };
  if (state.kind === 'dm') return state.recipients.length ? undefined : { text: 'Choose who to send this to.', field: 'recipients' };
  const channel = channelByName(state.channel);
  if (!channel) return { text: state.channel ? `There is no channel named "${state.channel}".` : 'Choose a channel.', field: 'channel' };
  if (!topicToSend(state, channel) && !emptyTopicAllowed(channel)) {
    const text =
      channel.topics_policy && channel.topics_policy !== 'inherit'
        ? `Sending messages to the ${topicRules.value.emptyTopicName} topic is not allowed in this channel.`
        : 'Topics are required in this organization.';
    return { text, field: 'topic' };
  }
  return undefined;
}

/**
 * Where the focus was before the compose box took it, to give it back on Escape; the buttons
 * that open the box are drawn again when it closes, so they are remembered by their place.
 */
let focusBeforeCompose: HTMLElement | null = null;
let openButtonBeforeCompose = -1;

export function openCompose(change: Partial<ComposeState>, field: ComposeField = 'message'): void {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body && !active.closest('.compose')) {
    focusBeforeCompose = active;
    openButtonBeforeCompose = [...document.querySelectorAll('.compose-closed button')].indexOf(active);
  }
  compose.value = { ...compose.value, ...change, open: true };
  composeFocus.value = { count: composeFocus.value.count + 1, field };
}

/** Where a new message goes from the view on the screen: its people, or its channel (and topic, if one is open). */
type Destination = { kind: 'dm'; recipients: number[] } | { kind: 'channel'; channel: string; topic: string | undefined };

function destinationHere(): Destination {
  const terms = view.value.kind === 'narrow' ? feedTerms.value : [];
  const self = session.value?.user_id ?? 0;
  const dm = narrowDm(terms);
  // The people of the conversation, or oneself for notes to self.
  if (dm) return { kind: 'dm', recipients: dm.length === 1 && dm[0] === self ? [self] : dm.filter((id) => id !== self) };
  const channel = narrowChannel(terms);
  const name = channel ? (channelName(channel.channelId) ?? '') : '';
  return { kind: 'channel', channel: name, topic: name ? channel?.topic : undefined };
}

/** The destination as the "New message" button names it: a channel (and topic), people, or nothing yet. */
export function composeHereTarget(): string {
  const here = destinationHere();
  if (here.kind === 'dm') return here.recipients.map((id) => userName(id)).join(', ');
  if (!here.channel) return '';
  return here.topic !== undefined ? `#${here.channel} › ${here.topic || topicRules.value.emptyTopicName}` : `#${here.channel}`;
}

/**
 * Opens the compose box for where the person is, as Zulip's `c`, `x` and "New message" do: in a
 * topic, that channel and topic (the focus in the message); in a channel, that channel (the focus
 * in the topic); in a direct-message view, those people. `x` starts in the recipient field.
 */
export function composeHere(kind: 'channel' | 'dm'): void {
  const here = destinationHere();
  const people = here.kind === 'dm' ? here.recipients : [];
  if (kind === 'dm') openCompose({ kind: 'dm', recipients: people, channel: '', topic: '' }, 'recipients');
  else if (here.kind === 'dm') openCompose({ kind: 'dm', recipients: people, channel: '', topic: '' });
  else if (!here.channel) openCompose({ kind: 'channel', channel: '', topic: '' }, 'channel');
  else if (here.topic !== undefined) openCompose({ kind: 'channel', channel: here.channel, topic: here.topic });
  else openCompose({ kind: 'channel', channel: here.channel, topic: '' }, 'topic');
}

/**
 * Gives the focus back after Escape in the compose box: to where it was before, else the
 * selected message, else the button that opens the box (once drawn again).
 */
export function returnFocusFromCompose(): void {
  const before = focusBeforeCompose;
  const openButton = openButtonBeforeCompose;
  focusBeforeCompose = null;
  openButtonBeforeCompose = -1;
  setTimeout(() => {
    // A key pressed meanwhile (input runs before timers) may already have put the focus
    // somewhere, such as the search box: it stays there.
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const target =
      (before?.isConnected ? before : null) ??
      (openButton >= 0 ? document.querySelectorAll<HTMLElement>('.compose-closed button')[openButton] : null) ??
      document.querySelector<HTMLElement>('.message-row.selected') ??
      document.querySelector<HTMLElement>('.compose-open-button');
    target?.focus();
  }, 0);
}

/**
 * Closes the compose box. Text left in it is kept as a draft on the server (the draft it came
 * from updated), as Zulip does, so it survives the page and shows under Drafts.
 */
export async function closeCompose(): Promise<void> {
  const state = compose.value;
  compose.value = EMPTY_COMPOSE;
  if (!state.content.trim()) return;
  const channel = state.kind === 'channel' ? channelByName(state.channel) : undefined;
  // Without a channel that exists, or anyone to write to, the draft keeps only its text.
  const recipient =
    channel !== undefined
      ? { type: 'stream', to: [channel.stream_id], topic: state.topic }
      : state.kind === 'dm' && state.recipients.length > 0
        ? { type: 'private', to: state.recipients, topic: '' }
        : { type: '', to: [], topic: '' };
  const draft = { ...recipient, content: state.content, timestamp: Math.floor(Date.now() / 1000) };
  if (state.draftId !== undefined) await patch(`/json/drafts/${state.draftId}`, { draft });
  else await post('/json/drafts', { drafts: [draft] });
}

/** Opens a draft in the compose box, in its conversation's view; sending it deletes the draft. */
export function restoreDraft(draft: Draft): void {
  const self = session.value?.user_id;
  if (draft.type === 'private') {
    const recipients = draft.to.filter((id) => id !== self);
    openCompose({ kind: 'dm', recipients, channel: '', topic: '', content: draft.content, draftId: draft.id });
    goToNarrow([{ operator: 'dm', operand: (recipients.length ? recipients : [self]).join(',') }]);
    return;
  }
  const channelId = draft.type === 'stream' ? draft.to[0] : undefined;
  openCompose({ kind: 'channel', channel: channelId === undefined ? '' : (channelName(channelId) ?? ''), topic: draft.topic, recipients: [], content: draft.content, draftId: draft.id });
  if (channelId === undefined) goTo('#inbox');
  else {
    goToNarrow([
      { operator: 'channel', operand: String(channelId) },
      ...(draft.topic ? [{ operator: 'topic', operand: draft.topic }] : []),
    ]);
  }
}

export function deleteDraft(id: number): Promise<unknown> {
  return del(`/json/drafts/${id}`);
}

let localCounter = 0;

/** Sends what the compose box holds, shown at once as a local echo until the server's copy arrives. */
export async function sendMessage(state: ComposeState): Promise<void> {
  const self = session.value;
  if (!self) return;
  const me = users.value.get(self.user_id);
  const localId = `${Date.now()}.${++localCounter}`;
  const problem = composeProblem(state);
  if (problem) throw new Error(problem.text);
  const channel = state.kind === 'channel' ? channelByName(state.channel) : undefined;
  // The server names the empty topic by its display name to this client, so the echo does too.
  const topic = topicToSend(state, channel) || topicRules.value.emptyTopicName;
  const echo: Message = {
    id: Number.MAX_SAFE_INTEGER - localCounter,
    local_id: localId,
    sender_id: self.user_id,
    sender_full_name: me?.full_name ?? self.email,
    sender_email: self.email,
    avatar_url: avatarUrlOf(me),
    timestamp: Math.floor(Date.now() / 1000),
    content: state.content,
    type: state.kind === 'channel' ? 'stream' : 'private',
    stream_id: channel?.stream_id,
    subject: state.kind === 'channel' ? topic : '',
    display_recipient:
      state.kind === 'channel'
        ? (channel?.name ?? state.channel)
        : [...new Set([...state.recipients, self.user_id])].map((id) => ({ id, email: users.value.get(id)?.email ?? '', full_name: users.value.get(id)?.full_name ?? '' })),
    flags: ['read'],
    reactions: [],
  };
  localEchoes.value = [...localEchoes.value, echo];
  // Sent from a view that would not show it (the Inbox, another topic), the message's
  // conversation opens, as Zulip's web app does by default.
  if (view.value.kind !== 'narrow' || matchesNarrow(echo, feed.value.terms, self.user_id) === false) {
    goToNarrow(
      channel
        ? [
            { operator: 'channel', operand: String(channel.stream_id) },
            { operator: 'topic', operand: topic },
          ]
        : [{ operator: 'dm', operand: state.recipients.join(',') }],
    );
  }
  const params =
    state.kind === 'channel'
      ? { type: 'stream', to: channel!.stream_id, topic: topicToSend(state, channel), content: state.content }
      : { type: 'direct', to: state.recipients, content: state.content };
  try {
    await post('/json/messages', { ...params, queue_id: currentQueueId() ?? undefined, local_id: localId, read_by_sender: true });
    if (state.draftId !== undefined) void deleteDraft(state.draftId).catch(() => undefined);
    if (state.scheduledId !== undefined) void del(`/json/scheduled_messages/${state.scheduledId}`).catch(() => undefined);
  } catch (err) {
    localEchoes.value = localEchoes.value.map((m) => (m.local_id === localId ? { ...m, failed: true } : m));
    throw err;
  }
}

export function dropEcho(localId: string): void {
  localEchoes.value = localEchoes.value.filter((m) => m.local_id !== localId);
}

// Typing notices: "start" at most every 10 seconds while typing, "stop" 5 seconds after the last key.
let typingSentAt = 0;
let stopTimer: ReturnType<typeof setTimeout> | undefined;
let typingTo: Record<string, unknown> | undefined;

function typingTarget(state: ComposeState): Record<string, unknown> | undefined {
  if (state.kind === 'dm') return state.recipients.length ? { type: 'direct', to: state.recipients } : undefined;
  const channel = channelByName(state.channel);
  return channel ? { type: 'stream', stream_id: channel.stream_id, topic: state.topic } : undefined;
}

export function noteTyping(state: ComposeState): void {
  const target = typingTarget(state);
  if (!target) return;
  const now = Date.now();
  if (now - typingSentAt > 10_000 || JSON.stringify(target) !== JSON.stringify(typingTo)) {
    typingSentAt = now;
    typingTo = target;
    void post('/json/typing', { ...target, op: 'start' }).catch(() => undefined);
  }
  clearTimeout(stopTimer);
  stopTimer = setTimeout(stopTyping, 5000);
}

export function stopTyping(): void {
  clearTimeout(stopTimer);
  if (!typingTo) return;
  const target = typingTo;
  typingTo = undefined;
  typingSentAt = 0;
  void post('/json/typing', { ...target, op: 'stop' }).catch(() => undefined);
}
