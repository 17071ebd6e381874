/** A small Zulip API client for the benchmarks: keep-alive sockets, form bodies, timed answers. */
import { readFileSync } from 'node:fs';
import http from 'node:http';

export interface Credentials {
  email: string;
  apiKey: string;
}

export interface Answer {
  status: number;
  body: any;
  /** performance.now() when the whole answer was here, before parsing. */
  receivedAt: number;
}

export class Api {
  readonly agent: http.Agent;

  constructor(
    readonly base: string,
    maxSockets = 64,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  static authHeader({ email, apiKey }: Credentials): string {
    return `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
  }

  /** One request; non-string form values are sent JSON-encoded, as Zulip's clients do. */
  request(method: string, path: string, auth: string | null, form?: Record<string, unknown>): Promise<Answer> {
    const encoded = form
      ? new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
      : undefined;
    const inQuery = method === 'GET' || method === 'DELETE';
    const url = new URL(`/api/v1${path}${inQuery && encoded ? `?${encoded}` : ''}`, this.base);
    const body = !inQuery && encoded ? encoded.toString() : undefined;
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            ...(auth ? { Authorization: auth } : {}),
            ...(body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const receivedAt = performance.now();
            resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()), receivedAt });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** A request that must succeed; its body. */
  async call(method: string, path: string, auth: string | null, form?: Record<string, unknown>): Promise<any> {
    const answer = await this.request(method, path, auth, form);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async login(email: string, password: string): Promise<Credentials> {
    const { api_key } = await this.call('POST', '/fetch_api_key', null, { username: email, password });
    return { email, apiKey: api_key };
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Nearest-rank percentile. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Resident memory of a process, from the kernel's own accounting (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}
