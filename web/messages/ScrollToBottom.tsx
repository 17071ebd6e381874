import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '../ui/icons';
import { feed, openNarrow, selectedId } from './feed';

/** The button goes this long after the reader stops scrolling (unless the pointer is on it). */
const HIDE_AFTER_MS = 3000;
/** A scroll this soon after a wheel turn or a finger's move is the reader's (a smooth scroll lasts a few hundred ms). */
const HAND_SCROLL_MS = 500;
/** Closer than this to the end of the newest message is at the bottom. */
const BOTTOM_SLACK_PX = 40;

/** Whether the scroller shows the end of what it holds (within a few pixels), where new messages keep it. */
export function atScrollEnd(el: HTMLElement): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK_PX;
}

/**
 * The round arrow that comes up at the feed's bottom right while someone scrolls with the
 * mouse or a finger away from the newest messages, as in Zulip: pressing it goes to the newest
 * message (fetching them first if the view holds only older ones). It fades out a few seconds
 * after the scrolling stops, and at once at the bottom or when a key is pressed: keyboard users
 * have End. It sits in the scroller, stuck to its bottom edge, so it takes no room.
 */
export function ScrollToBottom({ scroller, opened }: { scroller: RefObject<HTMLDivElement | null>; opened: number }) {
  const [shown, setShown] = useState(false);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hovered = useRef(false);
  const hideLater = () => {
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => {
      if (!hovered.current) setShown(false);
    }, HIDE_AFTER_MS);
  };

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Scrolls the reader makes with a wheel, a finger or the scroll bar; not those of the
    // keyboard (End, PgDn, j), nor the page's own (a view opening at its place, arrivals).
    let lastHandScroll = -Infinity;
    let pointerDown = false;
    const byHand = () => (lastHandScroll = performance.now());
    const onPointerDown = () => (pointerDown = true);
    const onPointerUp = () => (pointerDown = false);
    const onScroll = () => {
      const atBottom = feed.peek().foundNewest && atScrollEnd(el);
      if (atBottom) {
        clearTimeout(hideTimer.current);
        setShown(false);
        return;
      }
      if (!pointerDown && performance.now() - lastHandScroll > HAND_SCROLL_MS) return;
      setShown(true);
      hideLater();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.shiftKey || e.ctrlKey || e.metaKey) return;
      // What the key scrolls next (the selection moving) is the keyboard's.
      lastHandScroll = -Infinity;
      setShown(false);
    };
    el.addEventListener('wheel', byHand, { passive: true });
    el.addEventListener('touchmove', byHand, { passive: true });
    el.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('pointerup', onPointerUp);
    el.addEventListener('scroll', onScroll, { passive: true });
    document.addEventListener('keydown', onKey);
    return () => {
      el.removeEventListener('wheel', byHand);
      el.removeEventListener('touchmove', byHand);
      el.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('pointerup', onPointerUp);
      el.removeEventListener('scroll', onScroll);
      document.removeEventListener('keydown', onKey);
      clearTimeout(hideTimer.current);
    };
  }, []);

  // Another view: the button belongs to the one left.
  useEffect(() => setShown(false), [opened]);

  const toBottom = () => {
    setShown(false);
    const current = feed.peek();
    if (!current.foundNewest) {
      void openNarrow(current.terms, 'newest');
      return;
    }
    selectedId.value = current.messages.at(-1)?.id ?? null;
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  return (
    <div class={shown ? 'to-bottom shown' : 'to-bottom'}>
      <button
        type="button"
        class="to-bottom-button"
        tabIndex={-1}
        aria-label="Scroll to bottom"
        title="Scroll to bottom (End)"
        onClick={toBottom}
        onPointerEnter={() => (hovered.current = true)}
        onPointerLeave={() => {
          hovered.current = false;
          hideLater();
        }}
      >
        <Icon name="arrowDown" size={20} />
      </button>
    </div>
  );
}
