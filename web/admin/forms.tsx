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
