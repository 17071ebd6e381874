import { get } from '../api';
import { narrowHash, parseHash } from '../app/narrow';
import { hashNames } from '../app/nav';
import { session } from '../state';
import type { Message, NarrowTerm } from '../types';
import { matchesNarrow, openNarrow, prefetchNarrow } from './feed';
import { reportError, showNotice } from '../ui/Toasts';

/**
 * Links to messages: the address Zulip's "Copy link to message" builds, and opening
 * `near/ID` and `with/ID` addresses at that message.
 */

/** The message's conversation as narrow terms: its channel and topic, or its direct-message group. */
export function conversationTerms(message: Message): NarrowTerm[] {
  if (message.type === 'stream') {
    return [
      { operator: 'channel', operand: String(message.stream_id) },
      { operator: 'topic', operand: message.subject },
    ];
  }
  const self = session.value?.user_id ?? 0;
  const ids = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id).filter((id) => id !== self) : [];
  return [{ operator: 'dm', operand: (ids.length > 0 ? ids : [self]).join(',') }];
}

/**
 * The permanent link to a message, as Zulip writes it: the organization's address, then the
 * conversation (`channel/ID-name/topic/...`, or `dm/IDs-dm`, `-group` for three or more, every
 * participant counted) and `near/ID`.
 */
export function messageLink(message: Message): string {
  let hash: string;
  if (message.type === 'stream') {
    hash = narrowHash(conversationTerms(message), hashNames);
  } else {
    const ids = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id).sort((a, b) => a - b) : [];
    hash = `#narrow/dm/${ids.join(',')}-${ids.length >= 3 ? 'group' : 'dm'}`;
  }
  return `${location.origin}/${hash}/near/${message.id}`;
}

function messageIdOf(terms: NarrowTerm[], operator: 'near' | 'with'): number | undefined {
  const term = terms.find((t) => t.operator === operator && !t.negated && /^\d+$/.test(t.operand));
  return term ? Number(term.operand) : undefined;
}

/**
 * Opens a narrow from the address bar. `near/ID` opens the rest of the narrow at that message,
 * selected; `with/ID` does too, but follows the message to the conversation it is in now when
 * it was moved out of the one named (the address is corrected to say where it is).
 * `holdShown`: the message list is on the screen (see openNarrow).
 */
export async function openAddressedNarrow(terms: NarrowTerm[], holdShown = false): Promise<void> {
  const near = messageIdOf(terms, 'near');
  const withId = messageIdOf(terms, 'with');
  const rest = terms.filter((t) => t.operator !== 'near' && t.operator !== 'with');
  if (withId !== undefined) {
    let message: Message | undefined;
    try {
      message = (await get<{ message: Message }>(`/json/messages/${withId}`, { apply_markdown: false })).message;
    } catch {
      // Not a message the reader can see: the narrow as named, at its first unread message.
    }
    if (message && matchesNarrow(message, rest, session.value?.user_id ?? 0) !== true) {
      const where = conversationTerms(message);
      history.replaceState(history.state, '', `${narrowHash(where, hashNames)}/with/${withId}`);
      return openNarrow(where, withId, holdShown);
    }
    return openNarrow(rest, message ? withId : 'first_unread', holdShown);
  }
  return openNarrow(rest, near ?? 'first_unread', holdShown);
}

/**
 * Pressing a link to a view (the sidebar's channels and topics, a recipient bar, a channel
 * link in a message) asks for the view's messages at once, so the click that follows opens
 * it with them: a person's click takes about a tenth of a second from press to release.
 */
export function prefetchOnPress(event: PointerEvent): void {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  const href = (event.target as Element | null)?.closest?.('a[href]')?.getAttribute('href');
  const hash = href ? internalHash(href) : undefined;
  if (!hash) return;
  const shown = parseHash(hash);
  if (shown.kind !== 'narrow' || shown.terms.some((t) => t.operator === 'near' || t.operator === 'with')) return;
  prefetchNarrow(shown.terms);
}

/** The hash of a link into this organization's app (`#narrow/...`, `/#narrow/...`, or this host's full address), else undefined. */
export function internalHash(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href, location.href);
  } catch {
    return undefined;
  }
  if (url.origin !== location.origin || url.pathname !== '/' || url.search !== '' || url.hash.length < 2) return undefined;
  return url.hash;
}

/**
 * A click on a link inside a message: a link into this organization navigates in the page
 * (no new tab, no reload). Returns whether it was one.
 */
export function followInternalLink(event: MouseEvent): boolean {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return false;
  const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('.message-content a[href]');
  const hash = link ? internalHash(link.getAttribute('href') ?? '') : undefined;
  if (hash === undefined) return false;
  event.preventDefault();
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
  return true;
}

/**
 * A plain click on a link to another view of this page goes there within the click, instead
 * of in the `hashchange` task the browser queues after it (which let a frame be drawn in
 * between): the new view is drawn in the first frame after the click. Links whose clicks are
 * handled already (a message's links), or that open elsewhere, are left alone; Back and
 * Forward still arrive as `hashchange`.
 */
export function navigateOnClick(event: MouseEvent, go: () => void): void {
  if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest?.('a[href]');
  if (!link || link.hasAttribute('target') || link.hasAttribute('download')) return;
  const hash = internalHash(link.getAttribute('href') ?? '');
  if (hash === undefined || hash === location.hash) return;
  event.preventDefault();
  history.pushState(null, '', hash);
  go();
}

/** Copies the message's permanent link, and says so. */
export async function copyMessageLink(message: Message): Promise<void> {
  try {
    await navigator.clipboard.writeText(messageLink(message));
    showNotice('Link copied.');
  } catch (err) {
    reportError(err);
  }
}
