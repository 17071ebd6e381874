import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sodium from 'libsodium-wrappers';

export interface RelayRequest {
  /** The endpoint under the relay URL, e.g. 'push/notify'. */
  endpoint: string;
  authorization: string | undefined;
  body: Record<string, any>;
}

export interface RelayAnswer {
  status: number;
  body?: unknown;
}

/**
 * A push relay on loopback for tests: it records what Stoa posts and answers what the test
 * says (by default success).
 */
export class TestRelay {
  readonly requests: RelayRequest[] = [];
  answer: (request: RelayRequest) => RelayAnswer = TestRelay.success;

  private constructor(private readonly server: Server) {}

  static success(this: void): RelayAnswer {
    return { status: 200, body: { result: 'success', msg: '' } };
  }

  static async start(): Promise<TestRelay> {
    let relay: TestRelay;
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        const request = {
          endpoint: (req.url ?? '').replace(/^\/relay\//, ''),
          authorization: req.headers.authorization,
          body: JSON.parse(text || '{}'),
        };
        relay.requests.push(request);
        const answer = relay.answer(request);
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {}));
      });
    });
    relay = new TestRelay(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return relay;
  }

  /** The relay's URL with the credentials Stoa should present. */
  get url(): string {
    return `http://stoa-id:stoa-key@127.0.0.1:${(this.server.address() as AddressInfo).port}/relay/`;
  }

  /** Requests to one endpoint, oldest first. */
  to(endpoint: string): RelayRequest[] {
    return this.requests.filter((r) => r.endpoint === endpoint);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A loopback URL where nothing listens: connections are refused. */
export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}

/**
 * Opens what Stoa encrypted for a device (base64 of the nonce followed by the secretbox), as
 * the app does with its push key; call after `await sodium.ready`.
 */
export function openNotification(encrypted: string, secret: Uint8Array): Record<string, any> {
  const bytes = Buffer.from(encrypted, 'base64');
  const nonce = bytes.subarray(0, sodium.crypto_secretbox_NONCEBYTES);
  return JSON.parse(sodium.crypto_secretbox_open_easy(bytes.subarray(sodium.crypto_secretbox_NONCEBYTES), nonce, secret, 'text'));
}
