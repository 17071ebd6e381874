import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';

/**
 * What the organization pages share: a word that a change was saved (a polite status that
 * fades), and the error of a form shown in it, as Zulip shows its errors beside the form.
 */
export function useSavedNote(): [string, (text: string) => void] {
  const [note, setNote] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const say = (text: string) => {
    clearTimeout(timer.current);
    setNote(text);
    timer.current = setTimeout(() => setNote(''), 4000);
  };
  return [note, say];
}

export function SavedNote({ text }: { text: string }) {
  return (
    <p class="saved" role="status">
      {text}
    </p>
  );
}

/** A form's error, read out when it appears. */
export function FormError({ text }: { text: string }) {
  return text ? (
    <p class="form-error" role="alert">
      {text}
    </p>
  ) : null;
}

export function errorText(err: unknown): string {
  return err instanceof ApiError || err instanceof Error ? err.message : String(err);
}

/** A FormData with one file and the request's other parameters, encoded as Zulip takes them. */
export function fileForm(file: File, params: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  for (const [name, value] of Object.entries(params)) form.append(name, value);
  return form;
}

/** The IDs of a list in order, with the item at `index` swapped with its neighbour `by` away. */
export function movedIds(ids: number[], index: number, by: -1 | 1): number[] {
  const next = [...ids];
  [next[index], next[index + by]] = [next[index + by]!, next[index]!];
  return next;
}

/** The buttons of one item of an ordered list: move up and down, edit (a toggle), delete. */
export function OrderedItemActions({ name, index, count, editing, onMove, onEdit, onDelete }: {
  name: string;
  index: number;
  count: number;
  editing: boolean;
  onMove: (by: -1 | 1) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <span class="actions">
      <button type="button" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
        ↑
      </button>
      <button type="button" aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
        ↓
      </button>
      <button type="button" aria-expanded={editing} aria-label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </button>
      <button type="button" class="danger" aria-label={`Delete ${name}`} onClick={onDelete}>
        Delete
      </button>
    </span>
  );
}

/** The last column's heading of a table whose rows end in buttons. */
export function ActionsHeader() {
  return (
    <th scope="col">
      <span class="visually-hidden">Actions</span>
    </th>
  );
}
