import { signal } from '@preact/signals';

/** Short notices (mostly of what went wrong), read out by screen readers. */
const toasts = signal<Array<{ id: number; text: string }>>([]);
let counter = 0;

export function reportError(err: unknown): void {
  showNotice(err instanceof Error ? err.message : String(err));
}

/** Shows a short notice (what went wrong, or what was done, such as a message scheduled). */
export function showNotice(text: string): void {
  const id = ++counter;
  toasts.value = [...toasts.value, { id, text }];
  setTimeout(() => {
    toasts.value = toasts.value.filter((t) => t.id !== id);
  }, 6000);
}

export function Toasts() {
  return (
    <div class="toasts" role="status" aria-live="assertive">
      {toasts.value.map((t) => (
        <div key={t.id} class="toast">
          {t.text}
        </div>
      ))}
    </div>
  );
}
