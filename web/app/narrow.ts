import type { ChannelTab } from '../channels/state';
import type { NarrowTerm } from '../types';

/**
 * Narrows: the search box's syntax (`channel:design topic:"big plans" is:starred words`), the
 * API's `narrow` parameter, and the URL hash (`#narrow/channel/3-design/topic/big.20plans`),
 * with Zulip's encoding of hash components.
 */

/** Zulip's encoding for hash components: percent-encoding with "." in place of "%". */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text)
    .replace(/[.()'*!~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%/g, '.');
}

export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\./g, '%'));
  } catch {
    return text;
  }
}

/** Operators as the search box and URLs may spell them, in their modern names. */
const CANONICAL: Record<string, string> = {
  stream: 'channel',
  streams: 'channels',
  subject: 'topic',
  'pm-with': 'dm',
  'group-pm-with': 'dm-including',
  from: 'sender',
};

export function canonicalOperator(operator: string): string {
  const lower = operator.toLowerCase();
  return CANONICAL[lower] ?? lower;
}

const OPERATORS = new Set(['channel', 'channels', 'topic', 'sender', 'dm', 'dm-including', 'is', 'has', 'near', 'id', 'with', 'search']);

/** Splits search-box text into terms; words without an operator become one `search` term. */
export function parseSearch(text: string): NarrowTerm[] {
  const terms: NarrowTerm[] = [];
  const words: string[] = [];
  const tokens = text.match(/-?[\w-]+:"[^"]*"?|"[^"]*"?|\S+/g) ?? [];
  for (const token of tokens) {
    const match = /^(-?)([\w-]+):(.*)$/.exec(token);
    const operator = match ? canonicalOperator(match[2]) : '';
    if (match && OPERATORS.has(operator) && operator !== 'search') {
      const operand = match[3].replace(/^"|"$/g, '');
      terms.push({ operator, operand, ...(match[1] ? { negated: true } : {}) });
    } else {
      // A quoted phrase keeps its quotes: the server searches it as one phrase, and the box and the URL show it as typed.
      words.push(token);
    }
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' ') });
  return terms;
}

function quoted(operand: string): string {
  return /\s/.test(operand) ? `"${operand}"` : operand;
}

/** The search-box text for a narrow; `channelName` turns channel IDs back into names. */
export function searchText(terms: NarrowTerm[], channelName: (id: number) => string | undefined, userEmail: (id: number) => string | undefined): string {
  return terms
    .map((term) => {
      if (term.operator === 'search') return term.operand;
      let operand = term.operand;
      if (term.operator === 'channel' && /^\d+$/.test(operand)) operand = channelName(Number(operand)) ?? operand;
      if ((term.operator === 'dm' || term.operator === 'sender' || term.operator === 'dm-including') && /^[\d,]+$/.test(operand)) {
        operand = operand
          .split(',')
          .map((id) => userEmail(Number(id)) ?? id)
          .join(',');
      }
      return `${term.negated ? '-' : ''}${term.operator}:${quoted(operand)}`;
    })
    .join(' ');
}

export interface HashNames {
  channelName(id: number): string | undefined;
  userName(id: number): string | undefined;
}

function slug(text: string): string {
  return text.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');
}

/** The URL hash of a narrow, as Zulip writes it; the empty narrow is the combined feed. */
export function narrowHash(terms: NarrowTerm[], names: HashNames): string {
  if (terms.length === 0) return '#feed';
  const parts = ['#narrow'];
  for (const term of terms) {
    let operand = term.operand;
    if (term.operator === 'channel' && /^\d+$/.test(operand)) {
      const name = names.channelName(Number(operand));
      operand = name === undefined ? operand : `${operand}-${slug(name)}`;
    } else if ((term.operator === 'dm' || term.operator === 'sender') && /^[\d,]+$/.test(operand)) {
      const ids = operand.split(',').map(Number);
      const label = ids.length > 2 ? 'group' : slug(ids.map((id) => names.userName(id) ?? '').join('-'));
      operand = label ? `${operand}-${label}` : operand;
    }
    parts.push(encodeHashComponent(`${term.negated ? '-' : ''}${term.operator}`), encodeHashComponent(operand));
  }
  return parts.join('/');
}

/** What a hash shows: a narrow, or one of the app's own screens. */
export type HashView =
  | { kind: 'narrow'; terms: NarrowTerm[] }
  | { kind: 'inbox' }
  | { kind: 'recent' }
  | { kind: 'channels'; channelId?: number; tab?: ChannelTab }
  | { kind: 'drafts' }
  | { kind: 'scheduled' }
  | { kind: 'settings'; section: string; groups?: string[] };

/** Reads a URL hash; IDs written with a name after them (`3-design`) keep only the ID. */
export function parseHash(hash: string): HashView {
  const parts = hash.replace(/^#/, '').split('/');
  if (parts[0] === 'inbox' || parts[0] === '') return parts[0] === 'inbox' ? { kind: 'inbox' } : { kind: 'narrow', terms: [] };
  if (parts[0] === 'channels') {
    // A channel's settings: #channels/ID/name/tab, as Zulip writes them.
    if (!/^\d+$/.test(parts[1] ?? '')) return { kind: 'channels' };
    const tab = parts[3] === 'personal' || parts[3] === 'subscribers' ? parts[3] : 'general';
    return { kind: 'channels', channelId: Number(parts[1]), tab };
  }
  if (parts[0] === 'recent' || parts[0] === 'recent_topics') return { kind: 'recent' };
  if (parts[0] === 'drafts') return { kind: 'drafts' };
  if (parts[0] === 'scheduled') return { kind: 'scheduled' };
  // Zulip's user-group screens (#groups/your, #groups/all, #groups/new, #groups/ID/name/tab) open the groups page.
  if (parts[0] === 'groups') return { kind: 'settings', section: 'user-groups-admin', groups: parts.slice(1) };
  if (parts[0] === 'settings' || parts[0] === 'organization') return { kind: 'settings', section: parts[1] ?? (parts[0] === 'organization' ? 'organization-profile' : 'profile') };
  if (parts[0] !== 'narrow') return { kind: 'narrow', terms: [] };
  const terms: NarrowTerm[] = [];
  for (let i = 1; i + 1 < parts.length; i += 2) {
    let operator = decodeHashComponent(parts[i]);
    const negated = operator.startsWith('-');
    if (negated) operator = operator.slice(1);
    operator = canonicalOperator(operator);
    let operand = decodeHashComponent(parts[i + 1]);
    if (operator === 'channel' || operator === 'dm' || operator === 'sender' || operator === 'dm-including') {
      const ids = /^([\d,]+)-/.exec(operand);
      if (ids) operand = ids[1];
    }
    terms.push({ operator, operand, ...(negated ? { negated: true } : {}) });
  }
  return { kind: 'narrow', terms };
}
