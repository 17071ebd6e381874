import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';

/**
 * Long messages condensed, as Zulip does: a message taller than 65% of the window shows only
 * its first lines, with "Show more"; "Show less" condenses it again. What the reader chose for
 * a message is kept while the page is open, so drawing the row again keeps it. Collapsing (the
 * message's `collapsed` flag, kept by the server) hides a message whole, long or short.
 */

/** The reader's choice per message: condensed (true) or shown whole (false); none, the default. */
const chosen = signal<ReadonlyMap<number, boolean>>(new Map());
/** The messages drawn now that are long enough to condense, as last measured. */
const longMessages = new Set<number>();

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

function choose(messageId: number, condensed: boolean): void {
  chosen.value = new Map(chosen.value).set(messageId, condensed);
}

export function useCondensed(content: { current: HTMLElement | null }, messageId: number, html: string): Condensing {
  const [long, setLong] = useState(false);
  useEffect(() => {
    const el = content.current;
    if (!el) return;
    // The content's full height, even while condensed.
    const stop = watchSize(el, () => {
      const isLong = el.scrollHeight > cutoff();
      if (isLong) longMessages.add(messageId);
      else longMessages.delete(messageId);
      setLong(isLong);
    });
    return () => {
      stop();
      longMessages.delete(messageId);
    };
  }, [html]);
  const condensed = long && chosen.value.get(messageId) !== false;
  return { long, condensed, toggle: () => choose(messageId, !condensed) };
}

/**
 * What `-` does to a message, as Zulip's: a collapsed message is shown again (condensed again if
 * it is long); a condensed one is shown whole (null: no flag to change); any other is collapsed.
 */
export function collapseStep(messageId: number, collapsed: boolean): { collapse: boolean } | null {
  if (collapsed) {
    const choices = new Map(chosen.value);
    choices.delete(messageId);
    chosen.value = choices;
    return { collapse: false };
  }
  if (longMessages.has(messageId) && chosen.value.get(messageId) !== false) {
    choose(messageId, false);
    return null;
  }
  return { collapse: true };
}
