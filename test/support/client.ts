import { assertValidResponse } from './openapi';

/** How a request carries its parameters: the two body encodings Zulip clients use, or the query string. */
export type Encoding = 'urlencoded' | 'multipart' | 'query';

export interface ApiResponse {
  status: number;
  headers: Headers;
  // Tests read arbitrary fields of the JSON body.
  body: any;
}

export interface Credentials {
  email: string;
  apiKey: string;
}

/** Zulip clients send strings as they are and every other value JSON-encoded. */
export function encodeValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A response's JSON body, checked against the operation's schema in zulip.yaml. */
export async function checkedResponse(method: string, url: URL, response: Response): Promise<ApiResponse> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${url.pathname} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  assertValidResponse(method, url.pathname, response.status, json);
  return { status: response.status, headers: response.headers, body: json };
}

/**
 * A small Zulip API client for tests. Every response it receives is checked against the
 * operation's schema in zulip.yaml before the test sees it.
 */
export class Client {
  constructor(
    readonly baseUrl: string,
    readonly credentials?: Credentials,
  ) {}

  as(credentials: Credentials | undefined): Client {
    return new Client(this.baseUrl, credentials);
  }

  async request(
    method: string,
    path: string,
    params: Record<string, unknown> = {},
    options: { encoding?: Encoding; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<ApiResponse> {
    const encoding = options.encoding ?? (method === 'GET' ? 'query' : 'urlencoded');
    const url = new URL(`/api/v1${path}`, this.baseUrl);
    const headers: Record<string, string> = { ...options.headers };
    if (this.credentials) {
      const token = Buffer.from(`${this.credentials.email}:${this.credentials.apiKey}`).toString('base64');
      headers.authorization ??= `Basic ${token}`;
    }
    let body: string | FormData | undefined;
    const entries = Object.entries(params).map(([k, v]) => [k, encodeValue(v)] as const);
    if (encoding === 'query') {
      for (const [k, v] of entries) url.searchParams.set(k, v);
    } else if (encoding === 'urlencoded') {
      body = new URLSearchParams(entries.map(([k, v]) => [k, v] as [string, string])).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else {
      const form = new FormData();
      for (const [k, v] of entries) form.append(k, v);
      body = form;
    }
    const response = await fetch(url, { method, headers, body, signal: options.signal });
    return checkedResponse(method, url, response);
  }

  private authorization(): Record<string, string> {
    if (!this.credentials) return {};
    return { authorization: `Basic ${Buffer.from(`${this.credentials.email}:${this.credentials.apiKey}`).toString('base64')}` };
  }

  /** POSTs files (and fields) as multipart/form-data, as clients upload. */
  async upload(
    path: string,
    files: ReadonlyArray<{ name: string; bytes: Buffer | string; type?: string; field?: string }>,
    fields: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const file of files) {
      form.append(file.field ?? 'file', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
    }
    const url = new URL(`/api/v1${path}`, this.baseUrl);
    const response = await fetch(url, { method: 'POST', headers: this.authorization(), body: form });
    const json: unknown = JSON.parse(await response.text());
    assertValidResponse('POST', url.pathname, response.status, json);
    return { status: response.status, headers: response.headers, body: json };
  }

  /**
   * GETs a URL of the server outside the API (such as an upload), as this client; `redirect:
   * 'manual'` answers a redirect itself instead of where it leads.
   */
  async download(
    urlPath: string,
    options: { anonymous?: boolean; redirect?: 'manual'; accept?: string } = {},
  ): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const headers: Record<string, string> = options.anonymous ? {} : this.authorization();
    if (options.accept) headers.accept = options.accept;
    const response = await fetch(new URL(urlPath, this.baseUrl), { headers, redirect: options.redirect ?? 'follow' });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  get(path: string, params?: Record<string, unknown>, encoding?: Encoding) {
    return this.request('GET', path, params, { encoding });
  }
  post(path: string, params?: Record<string, unknown>, encoding?: Encoding) {
    return this.request('POST', path, params, { encoding });
  }
  patch(path: string, params?: Record<string, unknown>, encoding?: Encoding) {
    return this.request('PATCH', path, params, { encoding });
  }
  delete(path: string, params?: Record<string, unknown>, encoding?: Encoding) {
    return this.request('DELETE', path, params, { encoding });
  }
}
