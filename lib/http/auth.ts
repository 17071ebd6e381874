import type { IncomingMessage } from 'node:http';
import basicAuth from 'express-basic-auth';
import type { RequestHandler } from 'express';
import { hashToken, hasApiKeyFormat, sameSecret } from '../auth/credentials';
import { BotType } from '../bots/queries';
import { write } from '../events/send';
import type { SessionRow } from '../sessions/queries';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { CSRF_HEADER, readCookie, SESSION_COOKIE, SESSION_IDLE_MS } from './cookies';
import { ApiError, csrfFailed, invalidApiKey, rateLimited, realmDeactivated, sessionRequired, unauthorized, userDeactivated } from './errors';
import { clientAddress } from './client-address';

declare module 'express-serve-static-core' {
  interface Request {
    /** The authenticated caller, set by `authenticate` on endpoints that need one. */
    user?: UserRow;
  }
}

/**
 * Checks one email:api_key pair; returns the account or the error Zulip gives for it. An
 * incoming-webhook bot may only send messages (`mayBeIncomingWebhook` for those endpoints).
 */
export function checkApiKey(stoa: Stoa, email: string, apiKey: string, mayBeIncomingWebhook = false): UserRow | ApiError {
  // Zulip forgives stray whitespace around either half.
  email = email.trim();
  apiKey = apiKey.trim();
  if (!hasApiKeyFormat(apiKey)) return invalidApiKey('Malformed API key');
  const user = stoa.users.byAnyEmail(email);
  // Compare even when there is no such user, so timing does not reveal which emails exist.
  const matches = sameSecret(apiKey, user?.api_key ?? 'x'.repeat(apiKey.length));
  if (!user || !matches || user.is_system_bot) return invalidApiKey();
  if (stoa.realm.get()?.deactivated) return realmDeactivated();
  if (!user.is_active) return userDeactivated();
  if (user.bot_type === BotType.INCOMING_WEBHOOK && !mayBeIncomingWebhook) return incomingWebhookRefused();
  return user;
}

/** What an incoming-webhook bot's key gets anywhere but its webhooks and POST /messages. */
export function incomingWebhookRefused(): ApiError {
  return unauthorized('This API is not available to incoming webhook bots.');
}

/** The one API endpoint an incoming-webhook bot may call besides its webhooks, as in Zulip. */
function acceptsIncomingWebhookBots(req: IncomingMessage & { path?: string }): boolean {
  return req.method === 'POST' && /^\/messages\/?$/.test(req.path ?? '');
}

/**
 * HTTP Basic authentication with the account's email and API key. express-basic-auth parses
 * the header and answers failures with 401 and the Basic challenge; the body says why, in
 * Zulip's words and codes.
 */
export function authenticate(stoa: Stoa): RequestHandler {
  return (req, res, next) => {
    // Made only when needed: an Error captures a stack trace, too dear for every request.
    let failure: ApiError | undefined;
    // The authorizer only sees the credentials, so this request's outcome is kept in a closure.
    const middleware = basicAuth({
      authorizer: (email: string, apiKey: string) => {
        const outcome = checkApiKey(stoa, email, apiKey, acceptsIncomingWebhookBots(req));
        if (outcome instanceof ApiError) {
          failure = outcome;
          return false;
        }
        req.user = outcome;
        return true;
      },
      challenge: true,
      realm: 'zulip',
      unauthorizedResponse: () =>
        (failure ?? (req.headers.authorization ? unauthorized('Invalid authorization header for basic auth') : unauthorized())).body(),
    });
    middleware(req, res, next);
  };
}

/** Methods that change something: under the session cookie they need the CSRF header. */
const UNSAFE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * last_seen_ms is written at most this often per session: often enough to tell a live
 * session from an abandoned one, rarely enough that reading is not turned into writing.
 */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

// The session each request was authenticated by: logout ends it, a password change keeps it.
const requestSessions = new WeakMap<IncomingMessage, SessionRow>();

/** The browser session the request came with, when it was authenticated by one. */
export function sessionOf(req: IncomingMessage): SessionRow | undefined {
  return requestSessions.get(req);
}

/**
 * The session and account the request's session cookie names, or undefined when there is no
 * cookie, no such session, it went unused too long, or its account is deactivated.
 */
export function checkSession(stoa: Stoa, req: IncomingMessage): { session: SessionRow; user: UserRow } | undefined {
  const token = readCookie(req, SESSION_COOKIE);
  if (!token) return undefined;
  const session = stoa.sessions.byTokenHash(hashToken(token));
  const now = stoa.clock.now();
  if (!session || now - session.last_seen_ms > SESSION_IDLE_MS) return undefined;
  const user = stoa.users.byId(session.user_id);
  if (!user || !user.is_active) return undefined;
  if (now - session.last_seen_ms > TOUCH_EVERY_MS) write(stoa, () => stoa.sessions.touch(session.id, now));
  requestSessions.set(req, session);
  return { session, user };
}

/** Django's check: the X-CSRFToken header equals the session's token; an error when not. */
function csrfProblem(req: IncomingMessage, session: SessionRow): ApiError | undefined {
  if (!UNSAFE_METHODS.has(req.method ?? '')) return undefined;
  const given = req.headers[CSRF_HEADER];
  if (typeof given !== 'string' || given === '') return csrfFailed('CSRF token missing.');
  if (!sameSecret(given, session.csrf_token)) return csrfFailed('CSRF token incorrect.');
  return undefined;
}

/**
 * Authentication by the browser session cookie, for /json and /accounts: the session's
 * account, with the CSRF header on unsafe methods. Refusals carry no Basic challenge.
 */
export function authenticateSession(stoa: Stoa): RequestHandler {
  return sessionAuthentication(stoa, false);
}

/**
 * The same, for endpoints spectators may use: a request without a valid session goes on
 * without a caller (req.user unset), as Zulip serves its AnonymousUser, and the view decides.
 */
export function authenticateSessionOrSpectator(stoa: Stoa): RequestHandler {
  return sessionAuthentication(stoa, true);
}

/**
 * Why a request's session cookie is refused: a session whose account was deactivated says so
 * (USER_DEACTIVATED), so that an open page can tell its person why they were signed out;
 * anything else is a plain missing session. Deactivation keeps the account's sessions for this
 * and reactivation removes them (lib/users/actions.ts), so none of them works again.
 */
function sessionRefusal(stoa: Stoa, req: IncomingMessage): ApiError {
  const token = readCookie(req, SESSION_COOKIE);
  const session = token ? stoa.sessions.byTokenHash(hashToken(token)) : undefined;
  const fresh = session !== undefined && stoa.clock.now() - session.last_seen_ms <= SESSION_IDLE_MS;
  return fresh && stoa.users.byId(session.user_id)?.is_active === 0 ? userDeactivated() : sessionRequired();
}

function sessionAuthentication(stoa: Stoa, spectators: boolean): RequestHandler {
  return (req, _res, next) => {
    const found = checkSession(stoa, req);
    if (!found) return next(spectators ? spectatorRateLimit(stoa, req) : sessionRefusal(stoa, req));
    const problem = csrfProblem(req, found.session);
    if (problem) return next(problem);
    req.user = found.user;
    next();
  };
}

/**
 * For files a browser fetches by itself (images in messages): the session cookie when the
 * request has one and no Authorization header, HTTP Basic otherwise.
 */
export function authenticateEither(stoa: Stoa): RequestHandler {
  const basic = authenticate(stoa);
  const session = authenticateSession(stoa);
  return (req, res, next) => {
    if (!req.headers.authorization && readCookie(req, SESSION_COOKIE)) return session(req, res, next);
    basic(req, res, next);
  };
}

/**
 * As authenticateEither, for files spectators may fetch (uploads linked from web-public
 * channels): while `spectatorsAllowed()`, a request without an Authorization header and
 * without a valid session goes on without a caller, for the handler to judge. Otherwise,
 * and whenever credentials are given, it is authenticateEither.
 */
export function authenticateEitherOrSpectator(stoa: Stoa, spectatorsAllowed: () => boolean): RequestHandler {
  const either = authenticateEither(stoa);
  return (req, res, next) => {
    if (req.headers.authorization || !spectatorsAllowed()) return either(req, res, next);
    const found = checkSession(stoa, req);
    // Only GET reaches these files, so the session needs no CSRF header.
    if (found) req.user = found.user;
    next(found ? undefined : spectatorRateLimit(stoa, req));
  };
}

/**
 * Counts a spectator's request against their address, as Zulip limits unauthenticated use by
 * IP: the 429 error once the address is over the limit, else undefined.
 */
function spectatorRateLimit(stoa: Stoa, req: IncomingMessage): ApiError | undefined {
  const address = clientAddress(stoa.config, req);
  const limiter = stoa.spectatorRequests;
  const wait = limiter.waitSeconds(address);
  if (wait > 0) return rateLimited(wait);
  // The limiter counts "failures"; here every request is one.
  limiter.recordFailure(address);
  return undefined;
}
