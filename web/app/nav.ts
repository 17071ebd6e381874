import { signal } from '@preact/signals';
import { openAddressedNarrow } from '../messages/links';
import { narrowHash, parseHash, type HashView } from './narrow';
import { channelByName, channelName, session, userByEmail, userName } from '../state';
import type { NarrowTerm } from '../types';
import { homeHash } from '../views/home';
import { closeProfile, openProfile, showProfile } from '../people/state';

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

/** A person's full profile by address (`#user/ID`, as Zulip writes it), shown over the view. */
const PROFILE_HASH = /^#user\/(\d+)$/;
/** The last address that named a view: what closing a profile opened by its address goes back to. */
let viewHash = '';
let profileByAddress = false;

/** Shows what the current hash says. */
export function followHash(): void {
  const profile = PROFILE_HASH.exec(location.hash);
  if (profile) {
    profileByAddress = true;
    showProfile(Number(profile[1]), () => {
      profileByAddress = false;
      // Back to the view's address without another history entry (a link in the profile may be navigating already).
      if (PROFILE_HASH.test(location.hash)) history.replaceState(null, '', viewHash || homeHash());
    });
    // Opened as the page's first address: the home view goes behind it.
    if (viewHash) return;
  } else {
    viewHash = location.hash;
    // Back from a profile's address closes it.
    if (profileByAddress && openProfile.value !== null) closeProfile();
  }
  // An address without a view (the app's own root) shows the person's home view.
  let next = parseHash(location.hash.length > 1 && !profile ? location.hash : homeHash());
  if (next.kind === 'narrow' && !profile) {
    // Older links name channels and people (`#narrow/stream/Verona`): the view is the one the IDs name, at the IDs' address.
    const given = next.terms;
    const terms = normalizeTerms(given);
    const hash = narrowHash(terms, hashNames);
    if (terms.some((term, i) => term.operand !== given[i].operand) && hash !== location.hash) {
      history.replaceState(null, '', hash);
      viewHash = hash;
    }
    next = { kind: 'narrow', terms };
  }
  const listShown = view.value.kind === 'narrow';
  view.value = next;
  if (next.kind === 'narrow') void openAddressedNarrow(next.terms, listShown);
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
