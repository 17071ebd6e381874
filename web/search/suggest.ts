import { canonicalOperator } from '../app/narrow';
import { narrowChannel } from '../app/nav';
import { channelByName, channels, subscriptions, topics, users } from '../state';
import type { NarrowTerm, User } from '../types';

/**
 * Suggestions while typing in the search box, as Zulip's search typeahead offers them:
 * operators, people by name, channels, and the topics of the channel chosen. Each suggestion
 * is the whole new text of the box.
 */
export interface Suggestion {
  /** The box's text once chosen. */
  text: string;
  /** What the list shows. */
  label: string;
  /** Whether choosing it only fills the box (an operator waiting for its operand). */
  partial: boolean;
}

const MAX = 10;

const OPERATOR_HINTS: Array<[string, string]> = [
  ['channel:', 'Messages in a channel'],
  ['topic:', 'Messages in a topic'],
  ['sender:', 'Messages sent by a person'],
  ['dm:', 'Direct messages with a person'],
  ['dm-including:', 'Direct messages including a person'],
  ['is:', 'Starred, mentions, unread, direct messages, resolved, followed'],
  ['has:', 'Links, images, attachments, reactions'],
];

export const IS_VALUES: Array<[string, string]> = [
  ['starred', 'Starred messages'],
  ['mentioned', 'Messages that mention you'],
  ['unread', 'Unread messages'],
  ['dm', 'Direct messages'],
  ['resolved', 'Resolved topics'],
  ['followed', 'Followed topics'],
  ['muted', 'Muted topics and channels'],
];

export const HAS_VALUES: Array<[string, string]> = [
  ['link', 'Messages with links'],
  ['image', 'Messages with images'],
  ['attachment', 'Messages with attachments'],
  ['reaction', 'Messages with reactions'],
];

function quoted(text: string): string {
  return /\s/.test(text) ? `"${text}"` : text;
}

/** Splits off the word being typed: the text before it and the word (a quoted operand stays whole). */
export function lastToken(text: string): { before: string; token: string } {
  const match = /(?:^|\s)((?:-?[\w-]+:)?"[^"]*|\S*)$/.exec(text);
  const token = match?.[1] ?? '';
  return { before: text.slice(0, text.length - token.length), token };
}

/** People whose name or email contains the words typed; names that start with them first. */
export function peopleMatching(query: string): User[] {
  const q = query.toLowerCase();
  const found = [...users.value.values()].filter((u) => u.is_active !== false && (u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)));
  const starts = (u: User) => Number(!u.full_name.toLowerCase().startsWith(q));
  return found.sort((a, b) => starts(a) - starts(b) || a.full_name.localeCompare(b.full_name));
}

function channelsMatching(query: string): string[] {
  const q = query.toLowerCase();
  const names = new Map<number, string>();
  for (const sub of subscriptions.value.values()) names.set(sub.stream_id, sub.name);
  for (const channel of channels.value.values()) if (!names.has(channel.stream_id)) names.set(channel.stream_id, channel.name);
  const all = [...names.values()].filter((name) => name.toLowerCase().includes(q));
  const starts = (name: string) => Number(!name.toLowerCase().startsWith(q));
  return all.sort((a, b) => starts(a) - starts(b) || a.localeCompare(b));
}

/** The channel a topic suggestion is about: one named in the box, else the open channel. */
function channelForTopics(before: string, openTerms: NarrowTerm[]): number | undefined {
  const named = /(?:^|\s)(?:channel|stream):("[^"]*"|\S+)/i.exec(before);
  if (named) return channelByName(named[1].replace(/^"|"$/g, ''))?.stream_id;
  return narrowChannel(openTerms)?.channelId;
}

export function suggest(text: string, openTerms: NarrowTerm[], wantTopics: (channelId: number) => void): Suggestion[] {
  const { before, token } = lastToken(text);
  const out: Suggestion[] = [];
  const push = (tokenText: string, label: string, partial = false) => {
    const full = before + tokenText;
    if (!out.some((s) => s.text === full)) out.push({ text: full, label, partial });
  };
  const operand = /^(-?)([\w-]+):(.*)$/.exec(token);
  if (operand) {
    const [, negated, rawOperator, rawValue] = operand;
    const operator = canonicalOperator(rawOperator);
    const value = rawValue.replace(/^"|"$/g, '');
    const not = negated ? 'not ' : '';
    switch (operator) {
      case 'channel':
        for (const name of channelsMatching(value)) push(`${negated}channel:${quoted(name)}`, `${not}Channel #${name}`);
        break;
      case 'topic': {
        const channelId = channelForTopics(before, openTerms);
        if (channelId !== undefined) {
          wantTopics(channelId);
          const q = value.toLowerCase();
          for (const topic of topics.value.get(channelId) ?? []) {
            if (topic.name.toLowerCase().includes(q)) push(`${negated}topic:${quoted(topic.name)}`, `${not}Topic ${topic.name || 'general chat'}`);
          }
        }
        break;
      }
      case 'sender':
      case 'dm':
      case 'dm-including': {
        const what = { sender: 'Sent by', dm: 'Direct messages with', 'dm-including': 'Direct messages including' }[operator];
        for (const user of peopleMatching(value)) push(`${negated}${operator}:${user.email}`, `${not}${what} ${user.full_name}`);
        break;
      }
      case 'is':
        for (const [name, label] of IS_VALUES) if (name.startsWith(value.toLowerCase())) push(`${negated}is:${name}`, `${not}${label}`);
        break;
      case 'has':
        for (const [name, label] of HAS_VALUES) if (name.startsWith(value.toLowerCase())) push(`${negated}has:${name}`, `${not}${label}`);
        break;
    }
    return out.slice(0, MAX);
  }
  const word = token.replace(/^"/, '');
  const lower = word.toLowerCase();
  for (const [op, label] of OPERATOR_HINTS) if (op.startsWith(lower)) push(op, `${op} ${label}`, true);
  if (word.length > 0 && !token.startsWith('"')) {
    for (const user of peopleMatching(word).slice(0, 3)) {
      push(`sender:${user.email}`, `Sent by ${user.full_name}`);
      push(`dm:${user.email}`, `Direct messages with ${user.full_name}`);
    }
    for (const name of channelsMatching(word).slice(0, 3)) push(`channel:${quoted(name)}`, `Channel #${name}`);
    for (const [name, label] of IS_VALUES) if (name.startsWith(lower)) push(`is:${name}`, label);
  }
  return out.slice(0, MAX);
}
