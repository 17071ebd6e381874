import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { del, patch, post } from '../api';
import { confirmAction } from '../ui/Confirm';
import { Icon } from '../ui/icons';
import { Modal } from '../ui/Modal';
import { reportError } from '../ui/Toasts';
import { savedSnippets, type SavedSnippet } from './snippets';

/**
 * The compose box's saved snippets, as Zulip 10 has them: a list to pick from (filtered as
 * you type; Enter takes the first), each snippet editable and deletable, and "Create a new
 * saved snippet", which starts from what the message holds. Loaded with the first opening.
 */

/** Zulip's longest snippet title. */
const MAX_TITLE_LENGTH = 60;

function SnippetDialog({ snippet, initialContent, onClose }: { snippet?: SavedSnippet; initialContent: string; onClose: () => void }) {
  const [title, setTitle] = useState(snippet?.title ?? '');
  const [content, setContent] = useState(snippet?.content ?? initialContent);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const unchanged = snippet !== undefined && title.trim() === snippet.title && content.trim() === snippet.content;
  const ready = title.trim() !== '' && content.trim() !== '' && !unchanged && !saving;
  const save = async (event: Event) => {
    event.preventDefault();
    if (!ready) return;
    setSaving(true);
    try {
      const fields = { title: title.trim(), content: content.trim() };
      if (snippet) await patch(`/json/saved_snippets/${snippet.id}`, fields);
      else await post('/json/saved_snippets', fields);
      onClose();
    } catch (err) {
      setError((err as Error).message);
      setSaving(false);
    }
  };
  return (
    <Modal
      title={snippet ? 'Edit saved snippet' : 'Create a new saved snippet'}
      class="snippet-dialog"
      onClose={onClose}
      buttons={
        <>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="snippet-form" class="primary" disabled={!ready}>
            Save
          </button>
        </>
      }
    >
      <form id="snippet-form" class="snippet-form" onSubmit={save}>
        <label>
          Title
          <input type="text" value={title} maxLength={MAX_TITLE_LENGTH} autoFocus autoComplete="off" onInput={(e) => setTitle(e.currentTarget.value)} />
        </label>
        <label>
          Content
          <textarea rows={5} value={content} onInput={(e) => setContent(e.currentTarget.value)} />
        </label>
        {error && <p role="alert">{error}</p>}
      </form>
    </Modal>
  );
}

/** The panel of snippets over the compose box's buttons. */
export function SavedSnippetsPanel({ messageText, onInsert, onClose }: { messageText: string; onInsert: (content: string) => void; onClose: () => void }) {
  const [filter, setFilter] = useState('');
  const [dialog, setDialog] = useState<{ snippet?: SavedSnippet } | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const filterBox = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => filterBox.current?.focus(), []);
  const wanted = filter.trim().toLowerCase();
  const snippets = [...savedSnippets.value.values()]
    .filter((s) => s.title.toLowerCase().includes(wanted) || s.content.toLowerCase().includes(wanted))
    .sort((a, b) => a.title.localeCompare(b.title));
  const remove = async (snippet: SavedSnippet) => {
    if (!(await confirmAction('Delete saved snippet?', `"${snippet.title}" will be gone for good.`, 'Delete'))) return;
    try {
      await del(`/json/saved_snippets/${snippet.id}`);
    } catch (err) {
      reportError(err);
    }
  };
  // Up and Down go from one snippet to the next, and between the filter and the list.
  const move = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const stops = [filterBox.current, ...(panel.current?.querySelectorAll<HTMLElement>('.snippet-insert, .snippet-create') ?? [])].filter((el): el is HTMLElement => el !== null);
    const at = stops.indexOf(document.activeElement as HTMLElement);
    const next = stops[Math.min(stops.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)))];
    event.preventDefault();
    next?.focus();
  };
  if (dialog) return <SnippetDialog snippet={dialog.snippet} initialContent={messageText} onClose={onClose} />;
  return (
    <div class="snippet-panel" ref={panel} role="dialog" aria-label="Saved snippets" onKeyDown={move}>
      <input
        ref={filterBox}
        type="search"
        class="snippet-filter"
        placeholder="Filter"
        aria-label="Filter saved snippets"
        value={filter}
        onInput={(e) => setFilter(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && snippets[0]) {
            e.preventDefault();
            onInsert(snippets[0].content);
          }
        }}
      />
      {snippets.length > 0 ? (
        <ul class="snippet-list" aria-label="Saved snippets">
          {snippets.map((snippet) => (
            <li key={snippet.id}>
              <button type="button" class="snippet-insert" onClick={() => onInsert(snippet.content)}>
                <span class="snippet-title">{snippet.title}</span>
                <span class="snippet-content">{snippet.content}</span>
              </button>
              <button type="button" class="icon-button" aria-label={`Edit ${snippet.title}`} title="Edit" onClick={() => setDialog({ snippet })}>
                <Icon name="edit" />
              </button>
              <button type="button" class="icon-button" aria-label={`Delete ${snippet.title}`} title="Delete" onClick={() => void remove(snippet)}>
                <Icon name="trash" />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="snippet-empty">{savedSnippets.value.size === 0 ? 'You have no saved snippets.' : 'No saved snippets match.'}</p>
      )}
      <button type="button" class="snippet-create link-button" onClick={() => setDialog({})}>
        Create a new saved snippet
      </button>
    </div>
  );
}
