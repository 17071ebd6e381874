/** Talking to the server: the /json API, authenticated by the session cookie. */

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * A failure from the page's own script (web/early.ts, a bundle of its own with its own copy of
 * ApiError) as this bundle's ApiError, so that `instanceof ApiError` holds for it too.
 */
export function adoptApiError(err: unknown): unknown {
  if (err instanceof ApiError || !(err instanceof Error) || !('status' in err) || !('code' in err)) return err;
  const foreign = err as ApiError;
  return new ApiError(foreign.message, foreign.status, foreign.code, foreign.body);
}

let csrfFromLogin: string | undefined;

/** Why the login page is shown: `?signed-out=deactivated` says the account was deactivated. */
export const DEACTIVATED_LOGIN = '/login?signed-out=deactivated';

/** Leaves for the login page, which tells the person their account was deactivated. */
export function leaveDeactivated(): void {
  if (location.pathname !== '/login') location.assign(DEACTIVATED_LOGIN);
}

/** Remembers the CSRF token a login or session answer carried. */
export function setCsrfToken(token: string | undefined): void {
  csrfFromLogin = token;
}

/**
 * The CSRF cookie, read once: reading `document.cookie` asks the browser's cookie store
 * synchronously, which took tens of milliseconds while a page was loading. The cookie changes
 * only at a login, whose answer carries the new token (`setCsrfToken`), so one read is enough.
 */
let csrfCookieRead: { value: string | undefined } | undefined;
function csrfCookie(): string | undefined {
  if (!csrfCookieRead) {
    const cookie = document.cookie.split(/;\s*/).find((part) => part.startsWith('csrftoken='));
    csrfCookieRead = { value: cookie ? decodeURIComponent(cookie.slice('csrftoken='.length)) : undefined };
  }
  return csrfCookieRead.value;
}

export function hasCsrfCookie(): boolean {
  return csrfCookie() !== undefined;
}

/** The token a login or session answer carried is the current one; before either, the cookie's. */
function csrfToken(): string {
  return csrfFromLogin ?? csrfCookie() ?? '';
}

export type Params = Record<string, unknown>;

/** Zulip's parameter encoding: strings as they are, everything else JSON-encoded. */
export function encodeParams(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

/** Sends a request to `path` (e.g. '/json/messages' or '/accounts/login') and returns the success body. */
export async function request<T = Record<string, unknown>>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  params: Params = {},
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  let url = path;
  let body: BodyInit | undefined;
  if (method === 'GET') {
    const query = encodeParams(params).toString();
    if (query) url += `?${query}`;
  } else {
    headers['X-CSRFToken'] = csrfToken();
    body = params instanceof FormData ? params : encodeParams(params);
  }
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, credentials: 'same-origin', signal: options.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError('Cannot reach the server', 0, 'NETWORK', {});
  }
  let json: Record<string, unknown> = {};
  try {
    json = (await response.json()) as Record<string, unknown>;
  } catch {
    // A proxy's error page, or an empty body: the status says enough.
  }
  if (!response.ok || json.result !== 'success') {
    // The person was deactivated while the page was open: no request of theirs works any more.
    if (response.status === 401 && json.code === 'USER_DEACTIVATED' && path.startsWith('/json/')) leaveDeactivated();
    const message = typeof json.msg === 'string' && json.msg ? json.msg : `${response.status} ${response.statusText}`;
    throw new ApiError(message, response.status, typeof json.code === 'string' ? json.code : 'UNKNOWN', json);
  }
  return json as T;
}

/** Uploads one file (POST /json/user_uploads) and returns its URL and name. */
export async function uploadFile(file: File): Promise<{ url: string; filename: string }> {
  const form = new FormData();
  form.append('file', file, file.name || 'pasted-image.png');
  const answer = await request<{ url: string; filename?: string }>('POST', '/json/user_uploads', form as unknown as Params);
  return { url: answer.url, filename: answer.filename ?? file.name };
}

export const get = <T = Record<string, unknown>>(path: string, params?: Params, options?: RequestOptions) =>
  request<T>('GET', path, params, options);
export const post = <T = Record<string, unknown>>(path: string, params?: Params) => request<T>('POST', path, params);
export const patch = <T = Record<string, unknown>>(path: string, params?: Params) => request<T>('PATCH', path, params);
export const del = <T = Record<string, unknown>>(path: string, params?: Params) => request<T>('DELETE', path, params);
