import { adoptApiError, get, hasCsrfCookie } from '../api';
import { FIRST_BATCH, apiNarrow, namesOnlyByIds, requestMessages, type MessagesAnswer } from '../messages/fetch';
import { requestRegistration, type RegisterAnswer } from '../register';
import type { NarrowTerm } from '../types';
import { parseHash } from './narrow';

/**
 * The page's first requests: the session check, the registration (when the page holds a CSRF
 * token), and the messages of the view the address names. The page sends them from a small
 * script written into it (web/early.ts, built on its own), before any of the app's files have
 * arrived, and leaves them in `window.stoaEarly`; the app takes each answer when it gets that
 * far, so the server works on them while the browser is still loading and compiling the app.
 */

export interface SessionAnswer {
  user_id: number;
  email: string;
  csrf_token?: string;
  /** Whether the account has a password (the demo's people have none until they set one). */
  has_password?: boolean;
}

/** The home view's address, remembered from the last visit, for an address that names no view. */
export const HOME_HASH_KEY = 'stoa-home-hash';

/** The early requests on their way, each taken (and cleared) by the part of the app that wants it. */
interface EarlyRequests {
  session?: Promise<SessionAnswer>;
  registration?: Promise<RegisterAnswer>;
  messages?: { terms: NarrowTerm[]; anchor: string | number; answer: Promise<MessagesAnswer> };
}

declare global {
  interface Window {
    /** Set by startEarlyRequests, in the page's own script or, failing that, the app's first one. */
    stoaEarly?: EarlyRequests;
  }
}

/** An early request's answer as the app sees its own: a failure is the app's ApiError (see adoptApiError). */
function adopted<T>(answer: Promise<T> | undefined): Promise<T> | undefined {
  return answer?.catch((err: unknown) => {
    throw adoptApiError(err);
  });
}

/** Whether the page's own script has sent the early requests already. */
export const earlyRequestsSent = (): boolean => window.stoaEarly !== undefined;

/** Settles a promise nobody may wait for yet without an unhandled rejection; its taker sees the failure. */
function quietly<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** The narrow and anchor the first view opens with, when they can be asked for without the app's state. */
function firstNarrow(): { terms: NarrowTerm[]; anchor: string | number } | undefined {
  const hash = location.hash.length > 1 ? location.hash : localStorage.getItem(HOME_HASH_KEY);
  if (!hash) return undefined;
  const shown = parseHash(hash);
  if (shown.kind !== 'narrow' || shown.terms.some((t) => t.operator === 'with')) return undefined;
  const near = shown.terms.find((t) => t.operator === 'near' && !t.negated && /^\d+$/.test(t.operand));
  const terms = shown.terms.filter((t) => t.operator !== 'near');
  if (!namesOnlyByIds(terms)) return undefined;
  return { terms, anchor: near ? Number(near.operand) : 'first_unread' };
}

export function startEarlyRequests(): void {
  const early: EarlyRequests = (window.stoaEarly = {});
  const path = location.pathname.replace(/\/+$/, '');
  if (path === '/login' || path.startsWith('/join/')) return;
  early.session = quietly(get<SessionAnswer>('/accounts/session'));
  // The CSRF cookie comes and goes with the session: without it the page is most likely signed
  // out, and the registration (which needs the token) waits for the session's answer.
  if (!hasCsrfCookie()) return;
  early.registration = quietly(requestRegistration());
  const first = firstNarrow();
  if (first) {
    // Names are not needed: every channel and person in the narrow is named by ID.
    const answer = quietly(requestMessages(apiNarrow(first.terms, { channelId: () => undefined, userId: () => undefined, self: () => undefined }), first.anchor, FIRST_BATCH, FIRST_BATCH));
    early.messages = { ...first, answer };
  }
}

/** The early session check's answer (once), or undefined when none was sent. */
export function takeEarlySession(): Promise<SessionAnswer> | undefined {
  const taken = window.stoaEarly?.session;
  delete window.stoaEarly?.session;
  return adopted(taken);
}

/** The early registration's answer (once), or undefined when none was sent. */
export function takeEarlyRegistration(): Promise<RegisterAnswer> | undefined {
  const taken = window.stoaEarly?.registration;
  delete window.stoaEarly?.registration;
  return adopted(taken);
}

/**
 * The early messages, when they are those of this narrow and anchor (once; any other view
 * opened first lets them go). The answer may predate the registration: the caller fetches
 * the view again once the event queue is running.
 */
export function takeEarlyMessages(terms: NarrowTerm[], anchor: string | number): Promise<MessagesAnswer> | undefined {
  const taken = window.stoaEarly?.messages;
  delete window.stoaEarly?.messages;
  if (!taken || taken.anchor !== anchor || JSON.stringify(taken.terms) !== JSON.stringify(terms)) return undefined;
  return adopted(taken.answer);
}
