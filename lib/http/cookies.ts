import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The browser session's cookies (see README, "Signing in from a browser"). Only Stoa's own
 * cookies are read or written, and their values are URL-safe tokens, so no encoding is needed.
 */

/** The session token: sent by the browser with every request, never readable by scripts. */
export const SESSION_COOKIE = 'stoa_session';
/** The CSRF token: read by the page's scripts and echoed in the X-CSRFToken header. */
export const CSRF_COOKIE = 'csrftoken';
/** The header unsafe requests made with the session cookie must carry, Django's name for it. */
export const CSRF_HEADER = 'x-csrftoken';

/**
 * A session unused this long ends, as Zulip's sessions last two weeks. The cookies last as
 * long and are renewed whenever the page asks for its session (GET /accounts/session).
 */
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;

/** A cookie's value from the request, or undefined. A malformed Cookie header yields nothing. */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const value = pair.slice(at + 1).trim();
    // Tokens are URL-safe base64; anything else is not one of ours.
    return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * Whether the browser reached us over HTTPS: the connection itself (Express's req.secure
 * without a trusted proxy), or the configured site, which is what a proxy in front serves.
 */
export function isSecureRequest(req: IncomingMessage, site: string): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true || site.startsWith('https:');
}

function cookie(name: string, value: string, attributes: string[], secure: boolean): string {
  return [`${name}=${value}`, 'Path=/', ...attributes, ...(secure ? ['Secure'] : [])].join('; ');
}

/** Sets both session cookies; with empty values and no lifetime left, clears them. */
export function setSessionCookies(
  res: ServerResponse,
  values: { token: string; csrfToken: string } | null,
  secure: boolean,
): void {
  const maxAge = `Max-Age=${values ? Math.floor(SESSION_IDLE_MS / 1000) : 0}`;
  res.setHeader('Set-Cookie', [
    // Lax: the session still comes along when a person follows a link to Stoa from elsewhere.
    cookie(SESSION_COOKIE, values?.token ?? '', [maxAge, 'HttpOnly', 'SameSite=Lax'], secure),
    // Strict: no other site's page ever causes it to be sent.
    cookie(CSRF_COOKIE, values?.csrfToken ?? '', [maxAge, 'SameSite=Strict'], secure),
  ]);
}
