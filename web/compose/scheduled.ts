import { signal } from '@preact/signals';
import { del, patch, post } from '../api';
import { goToNarrow } from '../app/nav';
import { channelByName, channelName, session, updateMap } from '../state';
import type { ScheduledMessage } from '../types';
import { compose, composeProblem, openCompose, topicToSend, type ComposeState } from './state';

/**
 * The person's scheduled messages (`/scheduled_messages`), by ID: filled by the registration and
 * kept current by `scheduled_messages` events, so a change made in another client shows here.
 */
export const scheduledMessages = signal<Map<number, ScheduledMessage>>(new Map());

export function setScheduledMessages(list: ScheduledMessage[] | undefined): void {
  scheduledMessages.value = new Map((list ?? []).map((m) => [m.scheduled_message_id, m]));
}

/** Applies a `scheduled_messages` event (add, update, remove). */
export function onScheduledMessagesEvent(event: Record<string, unknown>): void {
  updateMap(scheduledMessages, (copy) => {
    if (event.op === 'add') for (const m of event.scheduled_messages as ScheduledMessage[]) copy.set(m.scheduled_message_id, m);
    else if (event.op === 'update') {
      const m = event.scheduled_message as ScheduledMessage;
      copy.set(m.scheduled_message_id, m);
    } else if (event.op === 'remove') copy.delete(event.scheduled_message_id as number);
  });
}

/** A reminder (`/reminders`, Zulip 11): a direct message to oneself about a message, sent at a time. */
export interface Reminder {
  reminder_id: number;
  to: number[];
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}

/** The person's reminders by ID, from the registration and `reminders` events. */
export const reminders = signal<Map<number, Reminder>>(new Map());

export function setReminders(list: Reminder[] | undefined): void {
  reminders.value = new Map((list ?? []).map((r) => [r.reminder_id, r]));
}

export function onRemindersEvent(event: Record<string, unknown>): void {
  updateMap(reminders, (copy) => {
    if (event.op === 'add') for (const r of event.reminders as Reminder[]) copy.set(r.reminder_id, r);
    else if (event.op === 'remove') copy.delete(event.reminder_id as number);
  });
}

/** The reminders, soonest first. */
export function remindersInOrder(): Reminder[] {
  return [...reminders.value.values()].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.reminder_id - b.reminder_id);
}

/** Asks the server to remind the person of a message at `time`, with a note of their own if any. */
export function createReminder(messageId: number, time: Date, note: string): Promise<unknown> {
  return post('/json/reminders', {
    message_id: messageId,
    scheduled_delivery_timestamp: Math.floor(time.getTime() / 1000),
    ...(note.trim() ? { note } : {}),
  });
}

export function deleteReminder(id: number): Promise<unknown> {
  return del(`/json/reminders/${id}`);
}

/** The scheduled messages, soonest first. */
export function scheduledInOrder(): ScheduledMessage[] {
  return [...scheduledMessages.value.values()].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);
}

function at(day: Date, hour: number): Date {
  const time = new Date(day);
  time.setHours(hour, 0, 0, 0);
  return time;
}

/** "Today at 4:00 PM", "Tomorrow at 9:00 AM", "Monday at 9:00 AM", else the date. */
export function describeTime(time: Date, now = new Date()): string {
  const clock = time.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
  const days = Math.round((at(time, 12).getTime() - at(now, 12).getTime()) / 86_400_000);
  if (days === 0) return `Today at ${clock}`;
  if (days === 1) return `Tomorrow at ${clock}`;
  if (days > 1 && days < 7) return `${time.toLocaleDateString([], { weekday: 'long' })} at ${clock}`;
  return `${time.toLocaleDateString([], { weekday: 'short', month: 'short', day: 'numeric', year: time.getFullYear() === now.getFullYear() ? undefined : 'numeric' })} at ${clock}`;
}

/**
 * The times Zulip suggests: the next two of today and tomorrow at 9 AM and 4 PM, and Monday at
 * 9 AM from Friday to Sunday.
 */
export function suggestedTimes(now = new Date()): Date[] {
  const tomorrow = new Date(now);
  tomorrow.setDate(now.getDate() + 1);
  const times = [at(now, 9), at(now, 16), at(tomorrow, 9), at(tomorrow, 16)].filter((t) => t > now).slice(0, 2);
  const weekday = now.getDay();
  if (weekday === 5 || weekday === 6 || weekday === 0) {
    const monday = new Date(now);
    monday.setDate(now.getDate() + ((8 - weekday) % 7 || 7));
    const nine = at(monday, 9);
    if (!times.some((t) => t.getTime() === nine.getTime())) times.push(nine);
  }
  return times;
}

/** What the server is asked to send: the compose box's recipient and text, checked as a send is. */
function scheduledParams(state: ComposeState): Record<string, unknown> {
  if (!state.content.trim()) throw new Error('Write a message first.');
  const problem = composeProblem(state);
  if (problem) throw new Error(problem.text);
  if (state.kind === 'dm') return { type: 'direct', to: state.recipients, content: state.content };
  const channel = channelByName(state.channel)!;
  return { type: 'stream', to: channel.stream_id, topic: topicToSend(state, channel), content: state.content };
}

/**
 * Schedules what the compose box holds for `time` (a new scheduled message, or the one being
 * edited), then empties and closes the box, as Zulip does; a draft it came from is deleted.
 */
export async function scheduleCompose(time: Date): Promise<void> {
  const state = compose.value;
  const params = { ...scheduledParams(state), scheduled_delivery_timestamp: Math.floor(time.getTime() / 1000) };
  if (state.scheduledId !== undefined && scheduledMessages.value.has(state.scheduledId)) {
    await patch(`/json/scheduled_messages/${state.scheduledId}`, params);
  } else {
    await post('/json/scheduled_messages', params);
  }
  if (state.draftId !== undefined) void del(`/json/drafts/${state.draftId}`).catch(() => undefined);
  compose.value = { ...compose.value, open: false, content: '', draftId: undefined, scheduledId: undefined };
}

/** Opens a scheduled message in the compose box; scheduling it again changes it, sending it now sends it instead. */
export function editScheduled(message: ScheduledMessage): void {
  const common = { content: message.content, scheduledId: message.scheduled_message_id, draftId: undefined };
  if (message.type === 'stream') {
    const channelId = message.to as number;
    openCompose({ ...common, kind: 'channel', channel: channelName(channelId) ?? '', topic: message.topic ?? '', recipients: [] });
    goToNarrow([
      { operator: 'channel', operand: String(channelId) },
      { operator: 'topic', operand: message.topic ?? '' },
    ]);
    return;
  }
  const self = session.value?.user_id;
  const everyone = message.to as number[];
  const others = everyone.filter((id) => id !== self);
  const people = others.length ? others : everyone;
  openCompose({ ...common, kind: 'dm', recipients: people, channel: '', topic: '' });
  goToNarrow([{ operator: 'dm', operand: people.join(',') }]);
}

export function cancelScheduled(id: number): Promise<unknown> {
  return del(`/json/scheduled_messages/${id}`);
}

export function rescheduleScheduled(id: number, time: Date): Promise<unknown> {
  return patch(`/json/scheduled_messages/${id}`, { scheduled_delivery_timestamp: Math.floor(time.getTime() / 1000) });
}
