import { useLayoutEffect, useState } from 'preact/hooks';

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
  useLayoutEffect(() => {
    const el = content.current;
    if (!el) return;
    // The content's full height, even while condensed; measured again as its images load.
    const measure = () => setLong(el.scrollHeight > cutoff());
    measure();
    el.addEventListener('load', measure, true);
    return () => el.removeEventListener('load', measure, true);
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
