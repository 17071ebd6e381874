import { signal } from '@preact/signals';
import { uploadFile } from '../api';
import { reportError } from '../ui/Toasts';
import { compose, composeHere } from './state';

/**
 * Changes to the text of the compose box's message field: formatting (the buttons and Ctrl+B,
 * Ctrl+I, Ctrl+Shift+L), insertions and uploads. Edits go through the browser's own insertion where it
 * has one, so Ctrl+Z undoes them as it undoes typing.
 */

let messageField: HTMLTextAreaElement | null = null;

/** The compose box tells which text area is its message field (null when it closes). */
export function setMessageField(field: HTMLTextAreaElement | null): void {
  messageField = field;
}

/** Replaces the field's text from `start` to `end` by `text`, then selects [selStart, selEnd] (offsets in the new text). */
function replaceRange(start: number, end: number, text: string, selStart: number, selEnd = selStart): void {
  const field = messageField;
  if (!field) {
    const content = compose.value.content;
    compose.value = { ...compose.value, content: content.slice(0, start) + text + content.slice(end) };
    return;
  }
  field.focus();
  field.setSelectionRange(start, end);
  // execCommand keeps the change on the undo stack and fires `input`, which updates the state.
  const inserted = text !== '' && document.execCommand('insertText', false, text);
  if (!inserted) {
    field.setRangeText(text, start, end, 'end');
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  field.setSelectionRange(selStart, selEnd);
}

function selection(): { text: string; start: number; end: number } {
  const text = messageField?.value ?? compose.value.content;
  const start = messageField?.selectionStart ?? text.length;
  const end = messageField?.selectionEnd ?? text.length;
  return { text, start, end };
}

/** Inserts text at the cursor, with a space before it unless it starts a line or follows one. */
export function insertAtCursor(insert: string): void {
  const { text, start, end } = selection();
  const before = text.slice(0, start);
  const spaced = (before && !/\s$/.test(before) ? ' ' : '') + insert;
  replaceRange(start, end, spaced, start + spaced.length);
}

/**
 * Wraps the selection in `prefix` and `suffix` (the cursor between them when nothing is
 * selected); a selection already wrapped so is unwrapped, as Zulip's buttons toggle.
 */
function toggleInline(prefix: string, suffix = prefix): void {
  const { text, start, end } = selection();
  const chosen = text.slice(start, end);
  const before = text.slice(0, start);
  const after = text.slice(end);
  // `**bold**` is not italic: a single `*` around it is another `*` of bold's.
  const wrappedOutside =
    before.endsWith(prefix) && after.startsWith(suffix) && !(prefix === '*' && before.endsWith('**') !== before.endsWith('***'));
  if (wrappedOutside) {
    replaceRange(start - prefix.length, end + suffix.length, chosen, start - prefix.length, end - prefix.length);
    return;
  }
  if (chosen.length > prefix.length + suffix.length && chosen.startsWith(prefix) && chosen.endsWith(suffix)) {
    const inner = chosen.slice(prefix.length, chosen.length - suffix.length);
    replaceRange(start, end, inner, start, start + inner.length);
    return;
  }
  replaceRange(start, end, prefix + chosen + suffix, start + prefix.length, start + prefix.length + chosen.length);
}

/** Puts the selection (or an empty line) in a fenced block: ```quote, ```spoiler, ```math, ```. */
function fenced(opening: string, placeholderSelected = ''): void {
  const { text, start, end } = selection();
  const chosen = text.slice(start, end);
  const before = text.slice(0, start);
  const lead = before && !before.endsWith('\n') ? '\n' : '';
  const block = `${lead}${opening}${placeholderSelected}\n${chosen}\n\`\`\``;
  const after = text.slice(end);
  const trail = after && !after.startsWith('\n') ? '\n' : '';
  const headerAt = start + lead.length + opening.length;
  // The cursor goes to the heading to write (a spoiler's), else inside the block.
  if (placeholderSelected) replaceRange(start, end, block + trail, headerAt, headerAt + placeholderSelected.length);
  else {
    const inside = headerAt + 1 + chosen.length;
    replaceRange(start, end, block + trail, chosen ? start + lead.length : inside, inside);
  }
}

export type FormatAction = 'bold' | 'italic' | 'link' | 'code' | 'quote' | 'spoiler' | 'math' | 'mention';

export function applyFormat(action: FormatAction): void {
  const { text, start, end } = selection();
  const chosen = text.slice(start, end);
  switch (action) {
    case 'bold':
      return toggleInline('**');
    case 'italic':
      return toggleInline('*');
    case 'link': {
      // [text](url) with "url" selected to be typed over; without a selection, the cursor in [].
      const label = chosen;
      const link = `[${label}](url)`;
      const urlAt = start + label.length + 3;
      if (label) replaceRange(start, end, link, urlAt, urlAt + 3);
      else replaceRange(start, end, link, start + 1);
      return;
    }
    case 'code':
      if (chosen && !chosen.includes('\n')) return toggleInline('`');
      return fenced('```');
    case 'quote':
      return fenced('```quote');
    case 'spoiler':
      return fenced('```spoiler ', 'Heading');
    case 'math':
      if (chosen && !chosen.includes('\n')) return toggleInline('$$');
      return fenced('```math');
    case 'mention':
      return insertAtCursor('@');
  }
}

/**
 * Writes a poll or to-do list made in its dialog as the message (a widget is a message of its
 * own, its command on the first line), the cursor at its end, ready to send.
 */
export function writeWidgetMessage(text: string): void {
  const { text: before } = selection();
  replaceRange(0, before.length, text, text.length);
}

/**
 * Ctrl+B, Ctrl+I and Ctrl+Shift+L (Cmd on macOS), as in Zulip 10.2, whose Ctrl+K searches even
 * from the compose box; true when the key was one of them.
 */
export function formatShortcut(e: KeyboardEvent): boolean {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return false;
  const key = e.key.toLowerCase();
  const action: FormatAction | undefined = e.shiftKey ? (key === 'l' ? 'link' : undefined) : ({ b: 'bold', i: 'italic' } as Record<string, FormatAction>)[key];
  if (!action) return false;
  e.preventDefault();
  applyFormat(action);
  return true;
}

/** How many uploads are under way. */
export const uploading = signal(0);

/** Uploads files and links each in the message, `[name](url)`, where the cursor is when it is done. */
export async function uploadFiles(files: FileList | File[]): Promise<void> {
  for (const file of [...files]) {
    uploading.value++;
    try {
      const { url, filename } = await uploadFile(file);
      insertAtCursor(`[${filename.replace(/[[\]]/g, '')}](${url})`);
    } catch (err) {
      reportError(err);
    } finally {
      uploading.value--;
    }
  }
}

/**
 * Files dropped anywhere over the conversation: the compose box opens for it (if it was closed)
 * and they are uploaded into it.
 */
export function dropFilesHere(files: FileList): void {
  if (!compose.value.open) composeHere('channel');
  void uploadFiles([...files]);
}
