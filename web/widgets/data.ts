import type { Submessage } from '../types';

/**
 * Polls and to-do lists as their submessages make them, the way Zulip's clients read them: the
 * sender's first `widget` submessage names the widget and what it starts with; every later one
 * is an event (a vote, a new option, a ticked task...) applied in order. Each option or task has
 * a key that says who added it: `canned` for those the message started with.
 */

export interface PollOption {
  key: string;
  text: string;
  /** Who voted for it, in the order they did. */
  voters: number[];
}

export interface Poll {
  kind: 'poll';
  question: string;
  options: PollOption[];
  /** The index the reader's next new option takes. */
  nextIdx: number;
}

export interface Task {
  key: string;
  task: string;
  desc: string;
  completed: boolean;
}

export interface TodoList {
  kind: 'todo';
  title: string;
  tasks: Task[];
  nextIdx: number;
}

export type Widget = Poll | TodoList;

function parse(content: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(content);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The widget of a message, or undefined when it has none this client draws. */
export function widgetOf(submessages: Submessage[] | undefined, senderId: number, self: number): Widget | undefined {
  const widgetMessages = (submessages ?? []).filter((s) => s.msg_type === 'widget');
  const first = widgetMessages[0];
  if (!first || first.sender_id !== senderId) return undefined;
  const start = parse(first.content);
  const extra = (start?.extra_data ?? {}) as Record<string, unknown>;
  const events = widgetMessages.slice(1).map((s) => ({ sender: s.sender_id, data: parse(s.content) }));
  if (start?.widget_type === 'poll') return pollOf(extra, events, senderId, self);
  if (start?.widget_type === 'todo') return todoOf(extra, events, senderId, self);
  return undefined;
}

type Event = { sender: number; data: Record<string, unknown> | undefined };

function pollOf(extra: Record<string, unknown>, events: Event[], author: number, self: number): Poll {
  const poll: Poll = { kind: 'poll', question: text(extra.question), options: [], nextIdx: 0 };
  const byKey = new Map<string, PollOption>();
  const addOption = (sender: number | 'canned', idx: number, option: string) => {
    const key = `${sender},${idx}`;
    if (byKey.has(key)) return;
    const entry = { key, text: option, voters: [] };
    byKey.set(key, entry);
    poll.options.push(entry);
    if (sender === self && idx >= poll.nextIdx) poll.nextIdx = idx + 1;
  };
  (Array.isArray(extra.options) ? extra.options : []).forEach((option, idx) => addOption('canned', idx, text(option)));
  for (const { sender, data } of events) {
    if (!data) continue;
    if (data.type === 'new_option' && typeof data.idx === 'number') addOption(sender, data.idx, text(data.option));
    else if (data.type === 'question' && sender === author) poll.question = text(data.question);
    else if (data.type === 'vote') {
      const option = byKey.get(text(data.key));
      if (!option) continue;
      option.voters = option.voters.filter((id) => id !== sender);
      if (data.vote === 1) option.voters.push(sender);
    }
  }
  return poll;
}

function todoOf(extra: Record<string, unknown>, events: Event[], author: number, self: number): TodoList {
  const list: TodoList = { kind: 'todo', title: text(extra.task_list_title), tasks: [], nextIdx: 0 };
  const byKey = new Map<string, Task>();
  const addTask = (sender: number | 'canned', idx: number, task: string, desc: string, completed: boolean) => {
    if (sender === self && idx >= list.nextIdx) list.nextIdx = idx + 1;
    const key = `${idx},${sender}`;
    // A task of the same name is not added twice, as in Zulip.
    if (byKey.has(key) || list.tasks.some((t) => t.task === task)) return;
    const entry = { key, task, desc, completed };
    byKey.set(key, entry);
    list.tasks.push(entry);
  };
  (Array.isArray(extra.tasks) ? extra.tasks : []).forEach((item, idx) => {
    const task = (item ?? {}) as Record<string, unknown>;
    addTask('canned', idx, text(task.task), text(task.desc), false);
  });
  for (const { sender, data } of events) {
    if (!data) continue;
    if (data.type === 'new_task' && typeof data.key === 'number') addTask(sender, data.key, text(data.task), text(data.desc), data.completed === true);
    else if (data.type === 'new_task_list_title' && sender === author) list.title = text(data.title);
    else if (data.type === 'strike') {
      const task = byKey.get(text(data.key));
      if (task) task.completed = !task.completed;
    }
  }
  return list;
}
