import { signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';

interface Question {
  title: string;
  text: string;
  confirm: string;
  answer: (yes: boolean) => void;
}

const question = signal<Question | null>(null);

/** Asks the person before doing something that cannot be undone at once; resolves to their answer. */
export function confirmAction(title: string, text: string, confirm: string): Promise<boolean> {
  question.value?.answer(false);
  return new Promise((resolve) => {
    question.value = {
      title,
      text,
      confirm,
      answer: (yes) => {
        question.value = null;
        resolve(yes);
      },
    };
  });
}

/** The one confirmation dialog of the page (a modal dialog: the focus stays in it, Escape says no). */
export function ConfirmDialog() {
  const asked = question.value;
  const dialog = useRef<HTMLDialogElement>(null);
  const before = useRef<Element | null>(null);
  useEffect(() => {
    if (!asked) return;
    before.current = document.activeElement;
    dialog.current?.showModal();
    return () => (before.current as HTMLElement | null)?.focus?.();
  }, [asked]);
  if (!asked) return null;
  return (
    <dialog
      ref={dialog}
      class="modal confirm-dialog"
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        asked.answer(false);
      }}
    >
      <h2 id="confirm-title">{asked.title}</h2>
      <p>{asked.text}</p>
      <div class="modal-buttons">
        <button type="button" onClick={() => asked.answer(false)}>
          Cancel
        </button>
        <button type="button" class="primary" onClick={() => asked.answer(true)}>
          {asked.confirm}
        </button>
      </div>
    </dialog>
  );
}
