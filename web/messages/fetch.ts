import { get } from '../api';
import type { Message, NarrowTerm } from '../types';

/**
 * GET /json/messages as the message view asks it: the narrow in the API's form and the
 * answer. Free of the app's state, so the page's first script can ask for the first view's
 * messages before the app is loaded.
 */

/** The first fetch of a view: about a screenful each way; the rest comes as the view scrolls. */
export const FIRST_BATCH = 15;

export interface MessagesAnswer {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
  found_anchor: boolean;
  anchor: number;
}

export type ApiNarrow = Array<{ operator: string; operand: string | number | number[]; negated?: boolean }>;

/** Turns the names a narrow may hold into IDs; undefined where the name is not known (the server is then given the name). */
export interface NarrowNames {
  channelId(name: string): number | undefined;
  userId(email: string): number | undefined;
  /** The reader's own ID, for `me`. */
  self(): number | undefined;
}

/** The operators whose operands name channels or people. */
const NAMING = new Set(['channel', 'dm', 'dm-including', 'sender']);

/** Whether a narrow names its channels and people by ID only, so it needs no names to be asked for. */
export function namesOnlyByIds(terms: NarrowTerm[]): boolean {
  return terms.every((term) => !NAMING.has(term.operator) || /^\d+(,\d+)*$/.test(term.operand));
}

/** Channel operands by ID and people by ID, as the API takes them. */
export function apiNarrow(terms: NarrowTerm[], names: NarrowNames): ApiNarrow {
  // The combined feed leaves out what the person muted, as Zulip's does.
  if (terms.length === 0) return [{ operator: 'in', operand: 'home' }];
  return terms.map((term) => {
    let operand: string | number | number[] = term.operand;
    if (term.operator === 'channel') {
      operand = /^\d+$/.test(term.operand) ? Number(term.operand) : (names.channelId(term.operand) ?? term.operand);
    } else if (term.operator === 'dm' || term.operator === 'dm-including' || term.operator === 'sender') {
      const ids = term.operand.split(',').map((part) => (/^\d+$/.test(part.trim()) ? Number(part) : (names.userId(part.trim()) ?? part.trim())));
      if (ids.every((id) => typeof id === 'number')) {
        operand = term.operator === 'dm' ? (ids as number[]) : (ids[0] as number);
      } else if (term.operand === 'me') {
        operand = names.self() ?? operand;
      }
    }
    return { operator: term.operator, operand, ...(term.negated ? { negated: true } : {}) };
  });
}

export function requestMessages(narrow: ApiNarrow, anchor: string | number, before: number, after: number): Promise<MessagesAnswer> {
  return get<MessagesAnswer>('/json/messages', {
    anchor: String(anchor),
    num_before: before,
    num_after: after,
    narrow,
    apply_markdown: true,
    client_gravatar: false,
  });
}
