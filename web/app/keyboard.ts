import { signal } from '@preact/signals';
import { feed, selectedId } from '../messages/feed';
import { actionsMenuId, canEditContent, forwardMessage, markUnreadFromHere, messageDialog, nearTerms, openEditor, quoteAndReply, reactionPickerId, replyMentioningSender, replyToAuthor, toggleCollapse } from '../messages/actions';
import { conversationTerms } from '../messages/links';
import { toggleTopicMute } from '../messages/MessageList';
import { setFlag, toggleReaction } from '../messages/MessageRow';
import { showUserCard } from '../people/state';
import { channelByName, channelsInSidebarOrder, session } from '../state';
import { compose } from '../compose/state';
import { goToNarrow, narrowChannel, narrowDm, view } from './nav';
import type { Message } from '../types';

/**
 * The keyboard shortcuts of the message view beyond moving and replying, as Zulip's help centre
 * lists them; Shell's key handler calls these. Every key listed in the help overlay works.
 */

/** The help overlay, on its keyboard shortcuts (`?`), message formatting or search filters; null: closed. */
export const helpShown = signal<'keys' | 'formatting' | 'search' | null>(null);

const THUMBS_UP = { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };

/** Scrolls the message list by most of a screen, as PageUp and PageDown do in Zulip. */
function scrollPage(direction: -1 | 1): void {
  const scroller = document.querySelector<HTMLElement>('.message-scroller');
  if (!scroller) return;
  scroller.scrollBy({ top: direction * scroller.clientHeight * 0.9 });
  // The selection follows into what is now in sight.
  const box = scroller.getBoundingClientRect();
  const row = document.elementFromPoint(box.left + box.width / 2, direction < 0 ? box.top + 40 : box.bottom - 40)?.closest<HTMLElement>('[data-message-id]');
  if (row) selectedId.value = Number(row.dataset.messageId);
}

/**
 * `s`: from a topic to its channel; from anywhere else but a direct message conversation, to
 * the selected message's topic or conversation, as in Zulip.
 */
function toggleConversationView(selected: Message): void {
  // The address's terms: the feed's leave out `near`, and a topic around a message is not the topic's own view.
  const shown = view.value;
  const terms = shown.kind === 'narrow' ? shown.terms : [];
  const channel = narrowChannel(terms);
  if (terms.length === 2 && channel?.topic !== undefined) goToNarrow([{ operator: 'channel', operand: String(channel.channelId) }]);
  else if (!(terms.length === 1 && narrowDm(terms))) goToNarrow(conversationTerms(selected));
}

/**
 * Shift+A and Shift+D: from a channel's view to the channel before or after it in the sidebar
 * (round at the ends), as Zulip cycles; nothing from any other view.
 */
export function cycleChannel(step: -1 | 1): boolean {
  const shown = view.value;
  const current = narrowChannel(shown.kind === 'narrow' ? shown.terms : [])?.channelId;
  if (current === undefined) return false;
  const order = channelsInSidebarOrder();
  const at = order.findIndex((channel) => channel.stream_id === current);
  if (at === -1 || order.length < 2) return false;
  const next = order[(at + step + order.length) % order.length];
  goToNarrow([{ operator: 'channel', operand: String(next.stream_id) }]);
  return true;
}

/** Ctrl+.: to the conversation the compose box is addressed to, as Zulip's. */
export function goToComposeDestination(): boolean {
  const state = compose.value;
  if (!state.open) return false;
  if (state.kind === 'dm') {
    if (state.recipients.length === 0) return false;
    goToNarrow([{ operator: 'dm', operand: state.recipients.join(',') }]);
    return true;
  }
  const channel = channelByName(state.channel);
  if (!channel) return false;
  const topic = state.topic.trim();
  goToNarrow([{ operator: 'channel', operand: String(channel.stream_id) }, ...(topic ? [{ operator: 'topic', operand: topic }] : [])]);
  return true;
}

/** `u`: the sender's card, beside their name (or picture, or the row where neither is shown). */
function showSenderCard(selected: Message): void {
  const row = document.querySelector<HTMLElement>('.message-row.selected');
  const anchor = row?.querySelector<HTMLElement>('.sender-name, .avatar-button') ?? row ?? null;
  showUserCard(selected.sender_id, anchor);
}

/**
 * `←`: opens the editor on one's latest message in the view (selecting it), as Zulip does;
 * false when the view holds none whose text may still be edited.
 */
export function editLastOwnMessage(): boolean {
  const self = session.value?.user_id;
  const last = [...feed.value.messages].reverse().find((m) => m.sender_id === self && m.local_id === undefined);
  // As in Zulip, only a message whose text may still be edited (not one past the time limit).
  if (!last || !canEditContent(last)) return false;
  selectedId.value = last.id;
  openEditor(last.id);
  return true;
}

/** Answers a key about the selected message or the view; false when the key is not one of these. */
export function messageKey(key: string, selected: Message | undefined): boolean {
  switch (key) {
    case '?':
      helpShown.value = helpShown.value === 'keys' ? null : 'keys';
      return true;
    case 'Home': {
      const first = feed.value.messages[0];
      if (first) selectedId.value = first.id;
      return true;
    }
    case 'PageUp':
    case 'K':
      scrollPage(-1);
      return true;
    case 'PageDown':
    case 'J':
      scrollPage(1);
      return true;
  }
  if (!selected) return false;
  switch (key) {
    case 'R':
      replyToAuthor(selected);
      return true;
    case '@':
      replyMentioningSender(selected);
      return true;
    case '>':
      void quoteAndReply(selected);
      return true;
    case '<':
      void forwardMessage(selected);
      return true;
    case 'e':
      if (canEditContent(selected) || selected.type === 'stream') openEditor(selected.id);
      else messageDialog.value = { kind: 'source', message: selected };
      return true;
    case 'm':
      // Direct messages stay where they are.
      if (selected.type !== 'stream') return false;
      openEditor(selected.id, true);
      return true;
    case 'H':
      // As the actions menu offers it: for a message that was edited or moved.
      if (selected.last_edit_timestamp === undefined && selected.last_moved_timestamp === undefined) return false;
      messageDialog.value = { kind: 'history', message: selected };
      return true;
    case '+':
      void toggleReaction(selected, THUMBS_UP);
      return true;
    case '=': {
      const first = selected.reactions[0];
      if (first) void toggleReaction(selected, first);
      return true;
    }
    case ':':
      reactionPickerId.value = reactionPickerId.value === selected.id ? null : selected.id;
      return true;
    case 'u':
      showSenderCard(selected);
      return true;
    case 'U':
      void markUnreadFromHere(selected, feed.value.terms);
      return true;
    case 'i':
      actionsMenuId.value = selected.id;
      return true;
    case '-':
      toggleCollapse(selected);
      return true;
    case 'V':
      messageDialog.value = { kind: 'receipts', message: selected };
      return true;
    case 'M':
      if (selected.type === 'stream') void toggleTopicMute(selected.stream_id ?? 0, selected.subject);
      return true;
    case 's':
      toggleConversationView(selected);
      return true;
    case 'z':
      goToNarrow(nearTerms(selected));
      return true;
  }
  return false;
}

/** Ctrl+S: stars the selected message or takes its star away, as in Zulip 10.2. */
export function toggleStar(selected: Message): void {
  void setFlag(selected, 'starred', !selected.flags.includes('starred'));
}
