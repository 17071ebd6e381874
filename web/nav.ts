import { signal } from '@preact/signals';
import { openNarrow } from './feed';
import { narrowHash, parseHash, type HashView } from './narrow';
import { channelName, userName } from './state';
import type { NarrowTerm } from './types';

/** What the centre shows, from the URL hash; back and forward move between views. */
export const view = signal<HashView>({ kind: 'narrow', terms: [] });

export const hashNames = { channelName, userName: (id: number) => userName(id) };

/** Goes to a narrow (a history entry, so back returns). */
export function goToNarrow(terms: NarrowTerm[]): void {
  const hash = narrowHash(terms, hashNames);
  if (location.hash === hash) {
    void openNarrow(terms);
    return;
  }
  location.hash = hash;
}

export function goTo(hash: string): void {
  location.hash = hash;
}

/** Shows what the current hash says. */
export function followHash(): void {
  const next = parseHash(location.hash);
  view.value = next;
  if (next.kind === 'narrow') void openNarrow(next.terms);
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
