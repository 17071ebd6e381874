import { signal } from '@preact/signals';
import { feed, selectedId } from '../messages/feed';
import { actionsMenuId, editingId, messageDialog, quoteAndReply, replyToAuthor } from '../messages/actions';
import { toggleTopicMute } from '../messages/MessageList';
import { setFlag, toggleReaction } from '../messages/MessageRow';
import { session } from '../state';
import type { Message } from '../types';

/**
 * The keyboard shortcuts of the message view beyond moving and replying, as Zulip's help centre
 * lists them; Shell's key handler calls these. Every key listed in the help overlay works.
 */

export const keyboardHelpOpen = signal(false);

/** The keys the help overlay lists: [keys, what they do]. */
export const SHORTCUTS: Array<[string, Array<[string, string]>]> = [
  [
    'The basics',
    [
      ['?', 'Show these keyboard shortcuts'],
      ['/', 'Search messages'],
      ['c', 'New message in this conversation'],
      ['x', 'New direct message'],
      ['Esc', 'Close what is open, leave a text box'],
      ['n', 'Next topic with unread messages'],
      ['p', 'Next direct message conversation with unread messages'],
    ],
  ],
  [
    'Moving among messages',
    [
      ['j or ↓', 'Next message (or conversation, in lists)'],
      ['k or ↑', 'Previous message (or conversation, in lists)'],
      ['Home', 'First message'],
      ['End', 'Last message'],
      ['PgUp', 'Scroll up a page'],
      ['PgDn', 'Scroll down a page'],
    ],
  ],
  [
    'The selected message',
    [
      ['r or Enter', 'Reply'],
      ['R', 'Reply to the author in a direct message'],
      ['>', 'Quote and reply'],
      ['e', 'Edit your message (or move it, or view its source)'],
      ['*', 'Star or unstar'],
      ['+', 'React with thumbs up (:+1:)'],
      ['i', 'Open the message actions menu'],
      ['M', 'Mute or unmute the topic'],
      ['v', 'View the images in the message'],
    ],
  ],
  [
    'Writing a message',
    [
      ['Enter', 'Send'],
      ['Shift+Enter', 'New line'],
      ['Ctrl+B', 'Bold'],
      ['Ctrl+I', 'Italic'],
      ['Ctrl+K', 'Insert a link'],
    ],
  ],
];

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

/** Answers a key about the selected message or the view; false when the key is not one of these. */
export function messageKey(key: string, selected: Message | undefined): boolean {
  switch (key) {
    case '?':
      keyboardHelpOpen.value = !keyboardHelpOpen.value;
      return true;
    case 'Home': {
      const first = feed.value.messages[0];
      if (first) selectedId.value = first.id;
      return true;
    }
    case 'PageUp':
      scrollPage(-1);
      return true;
    case 'PageDown':
      scrollPage(1);
      return true;
  }
  if (!selected) return false;
  const mine = selected.sender_id === session.value?.user_id;
  switch (key) {
    case 'R':
      replyToAuthor(selected);
      return true;
    case '>':
      void quoteAndReply(selected);
      return true;
    case 'e':
      if (mine || selected.type === 'stream') editingId.value = selected.id;
      else messageDialog.value = { kind: 'source', message: selected };
      return true;
    case '*':
      void setFlag(selected, 'starred', !selected.flags.includes('starred'));
      return true;
    case '+':
      void toggleReaction(selected, THUMBS_UP);
      return true;
    case 'i':
      actionsMenuId.value = selected.id;
      return true;
    case 'M':
      if (selected.type === 'stream') void toggleTopicMute(selected.stream_id ?? 0, selected.subject);
      return true;
  }
  return false;
}
