import { restoreFocus } from '../ui/focus';
import { useEffect, useRef } from 'preact/hooks';
import { keyboardHelpOpen, SHORTCUTS } from './keyboard';

/** The `?` overlay: the keyboard shortcuts that work, by what they act on. */
export function KeyboardHelp() {
  const dialog = useRef<HTMLDialogElement>(null);
  const open = keyboardHelpOpen.value;
  useEffect(() => {
    if (!open) return;
    const before = document.activeElement as HTMLElement | null;
    dialog.current?.showModal();
    dialog.current?.querySelector<HTMLElement>('.modal-buttons button')?.focus();
    return () => restoreFocus(before);
  }, [open]);
  if (!open) return null;
  const close = () => (keyboardHelpOpen.value = false);
  return (
    <dialog
      ref={dialog}
      class="modal keyboard-help"
      aria-labelledby="keyboard-help-title"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      onKeyDown={(e) => {
        // The page's key handler must not see this `?`: the overlay is gone by then, and it would open it again.
        if (e.key === '?') {
          e.stopPropagation();
          close();
        }
      }}
    >
      <h2 id="keyboard-help-title">Keyboard shortcuts</h2>
      <div class="shortcut-groups">
        {SHORTCUTS.map(([group, keys]) => (
          <section key={group} aria-label={group}>
            <h3>{group}</h3>
            <dl>
              {keys.map(([key, what]) => (
                <div key={key}>
                  <dt>
                    <kbd>{key}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <div class="modal-buttons">
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
    </dialog>
  );
}
