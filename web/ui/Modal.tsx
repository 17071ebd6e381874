import type { ComponentChildren } from 'preact';
import { useId, useLayoutEffect, useRef } from 'preact/hooks';
import { Icon } from './icons';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Whether a pointer event happened outside the dialog's box, on its backdrop. */
function onBackdrop(dialog: HTMLDialogElement, event: MouseEvent): boolean {
  if (event.target !== dialog) return false;
  const box = dialog.getBoundingClientRect();
  return event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom;
}

/**
 * The page's modal dialog: a title, a close button, the content and, for a question, its
 * answers at the foot. It opens when drawn (the rest of the page goes inert); Escape, the close
 * button and a click on the backdrop call `onClose`; Tab goes round inside it; when it goes, the
 * focus returns to where it was. The first control takes the focus unless one has `autofocus`.
 */
export function Modal({ title, class: className = '', onClose, buttons, onKeyDown, children }: {
  title: ComponentChildren;
  class?: string;
  onClose: () => void;
  /** The answers of a question (Cancel, Confirm); a dialog that only shows something has none. */
  buttons?: ComponentChildren;
  onKeyDown?: (event: KeyboardEvent) => void;
  children?: ComponentChildren;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const pressedOnBackdrop = useRef(false);
  const titleId = useId();
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const element = dialog.current;
    element?.showModal();
    return () => {
      // Closed first: while it is open the rest of the page is inert and cannot take the focus.
      element?.close();
      // A key pressed as the dialog went (`/` straight after closing the shortcuts) may have
      // put the focus somewhere already: it stays there.
      const now = document.activeElement;
      if (now && now !== document.body && now.isConnected && !element?.contains(now)) return;
      if (before?.isConnected) before.focus();
    };
  }, []);
  const keepFocusInside = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const controls = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((control) => control.getClientRects().length > 0);
    if (controls.length === 0) return;
    const first = controls[0];
    const last = controls[controls.length - 1];
    const at = document.activeElement;
    if (event.shiftKey && (at === first || at === dialog.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && at === last) {
      event.preventDefault();
      first.focus();
    }
  };
  return (
    <dialog
      ref={dialog}
      class={`modal ${className}`.trim()}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        keepFocusInside(event);
        onKeyDown?.(event);
      }}
      onMouseDown={(event) => (pressedOnBackdrop.current = onBackdrop(event.currentTarget, event))}
      onClick={(event) => {
        if (pressedOnBackdrop.current && onBackdrop(event.currentTarget, event)) onClose();
        pressedOnBackdrop.current = false;
      }}
    >
      <div class="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" class="modal-close" aria-label="Close" title="Close" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      {children}
      {buttons && <div class="modal-buttons">{buttons}</div>}
    </dialog>
  );
}
