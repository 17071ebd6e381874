import { useEffect, useRef, useState } from 'preact/hooks';
import { Modal } from '../ui/Modal';

/**
 * The dialogs of the compose box's poll and to-do buttons, as Zulip has them: a poll's question
 * and options, a to-do list's title and tasks (each with an optional description). A new empty
 * row appears as the last one is filled; a row can be removed. What was filled in is written as
 * the `/poll` or `/todo` message, ready to send. Loaded when first opened; the compose box writes
 * the message and puts the focus back.
 */

export type WidgetKind = 'poll' | 'todo';

interface Row {
  /** A key of its own, so removing a row keeps the others' fields. */
  id: number;
  text: string;
  description: string;
}

let nextRowId = 1;
const emptyRow = (): Row => ({ id: nextRowId++, text: '', description: '' });

/** The message for what was filled in: the command and title, then one line per filled row. */
export function widgetMessage(kind: WidgetKind, title: string, rows: Row[]): string {
  const lines = rows
    .map((row) => ({ text: row.text.trim(), description: row.description.trim() }))
    .filter((row) => row.text !== '')
    .map((row) => (kind === 'todo' && row.description ? `${row.text}: ${row.description}` : row.text));
  const heading = title.trim() || (kind === 'todo' ? 'Task list' : '');
  return [`/${kind} ${heading}`, ...lines].join('\n');
}

/** `onClose` gets the message to write, or nothing when the dialog was cancelled. */
export function WidgetDialog({ kind, onClose: close }: { kind: WidgetKind; onClose: (message?: string) => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [title, setTitle] = useState(kind === 'todo' ? 'Task list' : '');
  const [rows, setRows] = useState<Row[]>(() => [emptyRow(), emptyRow(), emptyRow()]);
  const poll = kind === 'poll';
  const item = poll ? 'Option' : 'Task';

  useEffect(() => {
    form.current?.querySelector<HTMLInputElement>('input')?.select();
  }, []);

  const change = (id: number, field: 'text' | 'description', value: string) => {
    const next = rows.map((row) => (row.id === id ? { ...row, [field]: value } : row));
    // Filling the last row makes another empty one below it.
    if (next[next.length - 1].text !== '') next.push(emptyRow());
    setRows(next);
  };
  const remove = (index: number) => {
    const next = rows.filter((_, i) => i !== index);
    setRows(next.length > 0 ? next : [emptyRow()]);
    // The focus stays in the list, on the row that took the removed one's place.
    requestAnimationFrame(() => {
      const fields = form.current?.querySelectorAll<HTMLInputElement>('.widget-row input:first-of-type');
      fields?.[Math.min(index, (fields?.length ?? 1) - 1)]?.focus();
    });
  };
  // A poll needs its question, as in Zulip; a to-do list has a title by default.
  const ready = !poll || title.trim() !== '';

  return (
    <Modal
      title={poll ? 'Create a poll' : 'Create a to-do list'}
      class="widget-dialog"
      onClose={() => close()}
      // Escape closes this dialog only (the dialog's cancel), not the compose box it is drawn in.
      onKeyDown={(e) => {
        if (e.key === 'Escape') e.stopPropagation();
      }}
    >
      <form
        ref={form}
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) close(widgetMessage(kind, title, rows));
        }}
      >
        <label class="widget-title">
          {poll ? 'Question' : 'Title'}
          <input type="text" autoComplete="off" value={title} placeholder={poll ? 'What do you want to ask?' : ''} onInput={(e) => setTitle(e.currentTarget.value)} />
        </label>
        <fieldset class="widget-rows">
          <legend>{poll ? 'Options' : 'Tasks'}</legend>
          <p class="widget-note">{poll ? 'Everyone can add options once the poll is sent.' : 'Everyone can add tasks once the list is sent.'}</p>
          <ol>
            {rows.map((row, i) => (
              <li key={row.id} class={poll ? 'widget-row' : 'widget-row with-description'}>
                <input type="text" autoComplete="off" aria-label={`${item} ${i + 1}`} value={row.text} onInput={(e) => change(row.id, 'text', e.currentTarget.value)} />
                {!poll && (
                  <input
                    type="text"
                    autoComplete="off"
                    aria-label={`Description of task ${i + 1}`}
                    placeholder="Description (optional)"
                    value={row.description}
                    disabled={row.text.trim() === ''}
                    onInput={(e) => change(row.id, 'description', e.currentTarget.value)}
                  />
                )}
                <button type="button" class="widget-remove" aria-label={`Remove ${item.toLowerCase()} ${i + 1}`} title="Remove" onClick={() => remove(i)}>
                  ×
                </button>
              </li>
            ))}
          </ol>
        </fieldset>
        <div class="modal-buttons">
          <button type="button" onClick={() => close()}>
            Cancel
          </button>
          <button type="submit" class="primary" aria-disabled={!ready}>
            {poll ? 'Add poll' : 'Add to-do list'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
