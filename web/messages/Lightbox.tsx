import { Icon } from '../ui/icons';
import { useEffect, useRef } from 'preact/hooks';
import { closeImageViewer, imageViewer, stepImageViewer } from './viewer';

/**
 * The image viewer: one image at a time over the page, with previous and next among the
 * view's images (buttons, or the arrow keys), Escape or the close button to leave; the focus
 * stays inside while it is open and goes back where it was after.
 */
export function Lightbox() {
  const state = imageViewer.value;
  const dialog = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
    // Keys are taken before the app sees them (the viewer is modal), wherever the focus is,
    // also after a button it was on was disabled at the last image.
    const onKeyDown = (e: KeyboardEvent) => {
      e.stopPropagation();
      if (e.key === 'Escape') closeImageViewer();
      else if (e.key === 'ArrowLeft') stepImageViewer(-1);
      else if (e.key === 'ArrowRight') stepImageViewer(1);
      else if (e.key === 'Tab') {
        // The focus goes round the viewer's controls.
        const controls = [...(dialog.current?.querySelectorAll<HTMLElement>('button:not([disabled]), a[href]') ?? [])];
        const at = controls.indexOf(document.activeElement as HTMLElement);
        const next = at < 0 ? controls[0] : controls[(at + (e.shiftKey ? -1 : 1) + controls.length) % controls.length];
        next?.focus();
      } else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, []);
  if (!state) return null;
  const image = state.images[state.index];
  const count = state.images.length;
  return (
    <div
      ref={dialog}
      class="lightbox"
      role="dialog"
      aria-modal="true"
      aria-label={`Image viewer: ${image.title}`}
      onClick={(e) => {
        if (e.target === e.currentTarget) closeImageViewer();
      }}
    >
      <div class="lightbox-bar">
        <span class="lightbox-title">{image.title}</span>
        {count > 1 && (
          <span class="lightbox-count">
            {state.index + 1} of {count}
          </span>
        )}
        <a href={image.original} target="_blank" rel="noopener noreferrer">
          Open original
        </a>
        <button ref={close} type="button" aria-label="Close image viewer" onClick={closeImageViewer}>
          <Icon name="close" size={18} />
        </button>
      </div>
      <img class="lightbox-image" src={image.src} alt={image.title} />
      {count > 1 && (
        <>
          <button type="button" class="lightbox-step previous" aria-label="Previous image" disabled={state.index === 0} onClick={() => stepImageViewer(-1)}>
            ‹
          </button>
          <button type="button" class="lightbox-step next" aria-label="Next image" disabled={state.index === count - 1} onClick={() => stepImageViewer(1)}>
            ›
          </button>
        </>
      )}
    </div>
  );
}
