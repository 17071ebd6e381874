import { signal } from '@preact/signals';
import { openAddressedNarrow } from '../messages/links';
import { narrowHash, parseHash, type HashView } from './narrow';
import { channelByName, channelName, session, userByEmail, userName } from '../state';
import type { NarrowTerm } from '../types';
import { homeHash } from '../views/home';

/** What the centre shows, from the URL hash; back and forward move between views. */
export const view = signal<HashView>({ kind: 'narrow', terms: [] });

export const hashNames = { channelName, userName: (id: number) => userName(id) };

/** Channels and people by ID, as Zulip's URLs name them, where the names are known. */
export function normalizeTerms(terms: NarrowTerm[]): NarrowTerm[] {
  return terms.map((term) => {
    if (term.operator === 'channel' && !/^\d+$/.test(term.operand)) {
      const channel = channelByName(term.operand);
      return channel ? { ...term, operand: String(channel.stream_id) } : term;
    }
    if (term.operator === 'dm' || term.operator === 'sender' || term.operator === 'dm-including') {
      const ids = term.operand.split(',').map((part) => {
        const text = part.trim();
        if (/^\d+$/.test(text)) return Number(text);
        if (text === 'me') return session.value?.user_id;
        return userByEmail(text)?.user_id;
      });
      if (ids.every((id) => id !== undefined)) return { ...term, operand: ids.join(',') };
    }
    return term;
  });
}

/** Goes to a narrow (a history entry, so back returns). */
export function goToNarrow(given: NarrowTerm[]): void {
  const terms = normalizeTerms(given);
  const hash = narrowHash(terms, hashNames);
  if (location.hash === hash) {
    void openAddressedNarrow(terms);
    return;
  }
  location.hash = hash;
}

export function goTo(hash: string): void {
  location.hash = hash;
}

/** Shows what the current hash says. */
export function followHash(): void {
  // An address without a view (the app's own root) shows the person's home view.
  const next = parseHash(location.hash.length > 1 ? location.hash : homeHash());
  view.value = next;
  if (next.kind === 'narrow') void openAddressedNarrow(next.terms);
}

/** The narrow's channel ID and topic, when it is a channel (and topic) narrow. */
export function narrowChannel(terms: NarrowTerm[]): { channelId: number; topic?: string } | undefined {
  const channel = terms.find((t) => t.operator === 'channel' && !t.negated);
  if (!channel || !/^\d+$/.test(channel.operand)) return undefined;
  const topic = terms.find((t) => t.operator === 'topic' && !t.negated);
  return { channelId: Number(channel.operand), topic: topic?.operand };
}

/** The other people of a DM narrow (`dm:3,5`). */
export function narrowDm(terms: NarrowTerm[]): number[] | undefined {
  const dm = terms.find((t) => t.operator === 'dm' && !t.negated);
  if (!dm || !/^[\d,]+$/.test(dm.operand)) return undefined;
  return dm.operand.split(',').map(Number);
}
