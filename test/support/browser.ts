import { checkedResponse, encodeValue, type ApiResponse } from './client';

/** One cookie as the server set it: its value and attributes (lower-cased names). */
export interface SetCookie {
  value: string;
  attributes: Map<string, string>;
}

/** Parses one Set-Cookie header line. */
export function parseSetCookie(line: string): { name: string; cookie: SetCookie } {
  const [pair, ...rest] = line.split(';');
  const at = pair.indexOf('=');
  const attributes = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    attributes.set(name, eq < 0 ? '' : part.slice(eq + 1).trim());
  }
  return { name: pair.slice(0, at).trim(), cookie: { value: pair.slice(at + 1).trim(), attributes } };
}

/**
 * A browser for tests: it keeps the cookies the server sets (a cleared cookie is dropped),
 * sends them back, and echoes the CSRF token in X-CSRFToken on unsafe requests, as the web
 * app does. Every answer is checked against zulip.yaml, /json ones like /api/v1 ones.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** The Set-Cookie lines of the last response, by cookie name. */
  lastSetCookies = new Map<string, SetCookie>();

  constructor(readonly baseUrl: string) {}

  get csrfToken(): string | undefined {
    return this.cookies.get('csrftoken');
  }

  /** A second browser holding the same cookies, as a copied cookie jar would. */
  clone(): Browser {
    const copy = new Browser(this.baseUrl);
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }

  /**
   * One request. `csrf`: true (default) sends the CSRF cookie's value on unsafe methods,
   * false sends none, a string sends that. `json` sends the parameters as a JSON body.
   */
  async request(
    method: string,
    path: string,
    params: Record<string, unknown> = {},
    options: { csrf?: boolean | string; json?: boolean; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse> {
    const url = new URL(path, this.baseUrl);
    const headers: Record<string, string> = { ...options.headers };
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie ??= cookie;
    const csrf = options.csrf ?? true;
    if (method !== 'GET' && csrf !== false) {
      const token = typeof csrf === 'string' ? csrf : this.csrfToken;
      if (token !== undefined) headers['x-csrftoken'] = token;
    }
    let body: string | undefined;
    if (method === 'GET') {
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, encodeValue(v));
    } else if (options.json) {
      body = JSON.stringify(params);
      headers['content-type'] = 'application/json';
    } else {
      body = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, encodeValue(v)])).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const response = await fetch(url, { method, headers, body });
    this.keepCookies(response.headers);
    return checkedResponse(method, url, response);
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keepCookies(headers: Headers): void {
    this.lastSetCookies = new Map();
    for (const line of headers.getSetCookie()) {
      const { name, cookie } = parseSetCookie(line);
      this.lastSetCookies.set(name, cookie);
      if (cookie.value === '' || cookie.attributes.get('max-age') === '0') this.cookies.delete(name);
      else this.cookies.set(name, cookie.value);
    }
  }

  login(email: string, password: string) {
    return this.request('POST', '/accounts/login', { username: email, password });
  }

  logout() {
    return this.request('POST', '/accounts/logout');
  }

  /** GETs a file outside the API (an upload), with the cookies. */
  /** GETs a URL outside the API with the cookie; a redirect is answered, not followed. */
  async download(urlPath: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
    const cookie = this.cookieHeader();
    const response = await fetch(new URL(urlPath, this.baseUrl), { headers: cookie ? { cookie } : {}, redirect: 'manual' });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  get(path: string, params?: Record<string, unknown>) {
    return this.request('GET', `/json${path}`, params);
  }
  post(path: string, params?: Record<string, unknown>, options?: { csrf?: boolean | string }) {
    return this.request('POST', `/json${path}`, params, options);
  }
  patch(path: string, params?: Record<string, unknown>, options?: { csrf?: boolean | string }) {
    return this.request('PATCH', `/json${path}`, params, options);
  }
  delete(path: string, params?: Record<string, unknown>, options?: { csrf?: boolean | string }) {
    return this.request('DELETE', `/json${path}`, params, options);
  }
}
