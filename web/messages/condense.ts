import { useEffect, useState } from 'preact/hooks';

/**
 * Long messages condensed, as Zulip does: a message taller than 65% of the window shows only
 * its first lines, with "Show more"; "Show less" condenses it again. What the reader chose for
 * a message is kept while the page is open, so drawing the row again keeps it.
 */

const chosen = new Map<number, boolean>();

/** The height past which a message is condensed. */
function cutoff(): number {
  return window.innerHeight * 0.65;
}

/**
 * One observer for every message's content. Its callbacks run after the browser's own layout,
 * so measuring a whole screen of messages costs one layout, not one forced layout a row (which
 * was most of the time a channel switch took); they run before the paint, so a long message is
 * never seen uncondensed. It also notices a message growing as its images load.
 */
let observer: ResizeObserver | undefined;
const onResize = new Map<Element, () => void>();

function watchSize(el: Element, measure: () => void): () => void {
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) onResize.get(entry.target)?.();
  });
  onResize.set(el, measure);
  observer.observe(el);
  return () => {
    onResize.delete(el);
    observer?.unobserve(el);
  };
}

export interface Condensing {
  /** Whether the message is long enough to be condensed at all. */
  long: boolean;
  /** Whether it is condensed now. */
  condensed: boolean;
  toggle(): void;
}

export function useCondensed(content: { current: HTMLElement | null }, messageId: number, html: string): Condensing {
  const [long, setLong] = useState(false);
  const [choice, setChoice] = useState(chosen.get(messageId));
  useEffect(() => {
    const el = content.current;
    if (!el) return;
    // The content's full height, even while condensed.
    return watchSize(el, () => setLong(el.scrollHeight > cutoff()));
  }, [html]);
  const condensed = long && choice !== false;
  return {
    long,
    condensed,
    toggle() {
      chosen.set(messageId, condensed ? false : true);
      setChoice(!condensed);
    },
  };
}
