import { signal } from '@preact/signals';
import { get, post } from '../api';
import { closeCompose, compose, openCompose } from '../compose/state';
import { realmSettings } from '../channels/state';
import { session, userName, users } from '../state';
import type { Message, NarrowTerm } from '../types';
import { reportError } from '../ui/Toasts';
import { apiNarrow, keepUnread } from './feed';
import { conversationTerms, messageLink } from './links';
import { collapseStep } from './condense';
import { replyTo, setFlag } from './MessageRow';

/**
 * The actions of a message beyond its toolbar (its actions menu, and the keys that do the same):
 * which message is being edited, whose menu is open, and the dialogs for source and history.
 */

/** The message whose editor is open (`e`, or Edit in its toolbar). */
export const editingId = signal<number | null>(null);
/** The message whose actions menu is open (`i`, or its ⋮ button). */
export const actionsMenuId = signal<number | null>(null);
/** A dialog about one message: its Markdown source, its edit history, who has read it, or a reminder to set. */
export const messageDialog = signal<{ kind: 'source' | 'history' | 'receipts' | 'remind'; message: Message } | null>(null);
/** The message whose emoji picker is open from the keyboard (`:`). */
export const reactionPickerId = signal<number | null>(null);
/** Whether the open editor was opened to move the message (`m`): its topic then takes the focus. */
export const editingToMove = signal(false);

/**
 * Whether the person may still change the message's text, as Zulip's client decides: their own
 * message, editing allowed in the organization, and within its time limit
 * (`realm_message_content_edit_limit_seconds`; none, no limit). Otherwise the editor offers
 * only the topic (a channel message can still be moved) and `e` shows the source.
 */
export function canEditContent(message: Message): boolean {
  if (message.sender_id !== session.value?.user_id) return false;
  const settings = realmSettings.value;
  if (settings.realm_allow_message_editing === false) return false;
  const limit = settings.realm_message_content_edit_limit_seconds;
  return typeof limit !== 'number' || Date.now() / 1000 - message.timestamp < limit;
}

/** Opens the editor on a message (to move it: the topic first), or closes it with null. */
export function openEditor(messageId: number | null, toMove = false): void {
  editingToMove.value = toMove;
  editingId.value = messageId;
}

/** `-`, or "Show more" on a collapsed message: one step of Zulip's collapse and condense toggle. */
export function toggleCollapse(message: Message): void {
  const step = collapseStep(message.id, message.flags.includes('collapsed'));
  if (step) void setFlag(message, 'collapsed', step.collapse);
}

export async function rawContent(message: Message): Promise<string> {
  const answer = await get<{ message: { content: string } }>(`/json/messages/${message.id}`, { apply_markdown: false });
  return answer.message.content;
}

/** The message in its conversation (`near`), as Zulip's links and `z` show it. */
export function nearTerms(message: Message): NarrowTerm[] {
  return [...conversationTerms(message), { operator: 'near', operand: String(message.id) }];
}

/** The message quoted as Zulip writes a quote: who said it, a link to it, and its Markdown in a quote block. */
async function quoteOf(message: Message): Promise<string | null> {
  let source: string;
  try {
    source = await rawContent(message);
  } catch (err) {
    reportError(err);
    return null;
  }
  // A fence longer than any run of backticks in the text, so the quote holds it whole.
  const longest = Math.max(2, ...[...source.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `@_**${userName(message.sender_id)}|${message.sender_id}** [said](${messageLink(message)}):\n${fence}quote\n${source}\n${fence}\n`;
}

/** Replies quoting the message, added to what the compose box holds. */
export async function quoteAndReply(message: Message): Promise<void> {
  const quote = await quoteOf(message);
  if (quote === null) return;
  replyTo(message);
  const before = compose.value.content;
  compose.value = { ...compose.value, content: before ? `${before.replace(/\n*$/, '')}\n\n${quote}` : quote };
}

/**
 * Zulip's "Forward message" (`<`): a new message of nothing but the quote, addressed as the
 * message was, with the cursor in the channel (or the recipients) to choose where it goes.
 */
export async function forwardMessage(message: Message): Promise<void> {
  const quote = await quoteOf(message);
  if (quote === null) return;
  // What was being written is kept as a draft, as closing the box keeps it.
  if (compose.value.content.trim()) await closeCompose().catch(reportError);
  replyTo(message);
  openCompose({ content: quote, draftId: undefined }, message.type === 'stream' ? 'channel' : 'recipients');
}

/** A reply in the message's conversation that starts by mentioning its sender, as Zulip's `@`. */
export function replyMentioningSender(message: Message): void {
  replyTo(message);
  const name = userName(message.sender_id);
  // A name two people share is told apart by the ID, as Zulip's typeahead writes it.
  const shared = [...users.value.values()].filter((u) => u.full_name === name).length > 1;
  const mention = `@**${name}${shared ? `|${message.sender_id}` : ''}** `;
  const before = compose.value.content;
  compose.value = { ...compose.value, content: before && !before.endsWith(' ') && !before.endsWith('\n') ? `${before} ${mention}` : before + mention };
}

/** A direct message to the message's author, as Zulip's "Reply directly to sender". */
export function replyToAuthor(message: Message): void {
  openCompose({ kind: 'dm', recipients: [message.sender_id] });
}

interface FlagsNarrowAnswer {
  last_processed_id: number | null;
  found_newest: boolean;
  updated_message_ids: number[];
}

/**
 * Marks this message and every later one of the view unread, as Zulip's "Mark as unread from
 * here": through POST /messages/flags/narrow, a batch at a time until the newest.
 */
export async function markUnreadFromHere(message: Message, terms: NarrowTerm[]): Promise<void> {
  let anchor: number | string = message.id;
  let includeAnchor = true;
  try {
    for (let round = 0; round < 20; round++) {
      const answer: FlagsNarrowAnswer = await post<FlagsNarrowAnswer>('/json/messages/flags/narrow', {
        anchor: String(anchor),
        include_anchor: includeAnchor,
        num_before: 0,
        num_after: 1000,
        narrow: apiNarrow(terms),
        op: 'remove',
        flag: 'read',
      });
      for (const id of answer.updated_message_ids) keepUnread(id);
      if (answer.found_newest || answer.last_processed_id === null) return;
      anchor = answer.last_processed_id;
      includeAnchor = false;
    }
  } catch (err) {
    reportError(err);
  }
}
