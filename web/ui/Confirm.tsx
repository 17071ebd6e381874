import { signal } from '@preact/signals';
import { Modal } from './Modal';

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

/** The one confirmation dialog of the page: Escape, the close button or the backdrop say no; Cancel has the focus. */
export function ConfirmDialog() {
  const asked = question.value;
  if (!asked) return null;
  return (
    <Modal
      title={asked.title}
      class="confirm-dialog"
      onClose={() => asked.answer(false)}
      buttons={
        <>
          <button type="button" autoFocus onClick={() => asked.answer(false)}>
            Cancel
          </button>
          <button type="button" class="primary" onClick={() => asked.answer(true)}>
            {asked.confirm}
          </button>
        </>
      }
    >
      <p>{asked.text}</p>
    </Modal>
  );
}
