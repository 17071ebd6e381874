import { ApiError } from '../http/errors';
import { withoutCredentials } from '../http/url-credentials';
import type { Stoa } from '../stoa';

/**
 * The client side of the push relay protocol (README, "Push notifications"). The relay is
 * the service that holds the credentials for Apple's and Google's push services, as Zulip's
 * push notification bouncer does: Stoa posts JSON to `<relay URL>/<endpoint>` with HTTP Basic
 * credentials taken from the URL's user-info part, and the relay answers JSON.
 */

/** Long enough for a relay on another continent, short enough that a test request fails in time. */
const RELAY_TIMEOUT_MS = 15_000;

/** Relay error codes that concern one device or one request, not the server's standing. */
const DEVICE_ERROR_CODES = new Set([
  'INVALID_REMOTE_PUSH_DEVICE_TOKEN',
  'INVALID_BOUNCER_PUBLIC_KEY',
  'REQUEST_EXPIRED',
  'BAD_REQUEST',
]);

export type RelayFailure =
  /** The relay could not be reached (refused, reset, timed out). */
  | { kind: 'unreachable'; detail: string }
  /** The relay answered 5xx, or something that is not the protocol's JSON. */
  | { kind: 'relay_error'; detail: string }
  /** The relay refused the server itself: credentials, plan, unknown organization. */
  | { kind: 'server_refused'; detail: string }
  /** The relay refused this device or request, with its own code and message. */
  | { kind: 'device_refused'; code: string; msg: string };

export class RelayFailed extends Error {
  constructor(readonly failure: RelayFailure) {
    super(failure.kind === 'device_refused' ? `${failure.code}: ${failure.msg}` : `${failure.kind}: ${failure.detail}`);
  }
}

export function relayConfigured(stoa: Stoa): boolean {
  return stoa.config.pushRelay !== undefined;
}

/** Posts one request to the relay; resolves to its JSON body, or throws RelayFailed. */
export async function postToRelay(stoa: Stoa, endpoint: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const configured = stoa.config.pushRelay;
  if (configured === undefined) throw new Error('no push relay is configured');
  const { url, authorization } = withoutCredentials(new URL(endpoint, configured.endsWith('/') ? configured : `${configured}/`));
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': 'Stoa' };
  if (authorization) headers.Authorization = authorization;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(RELAY_TIMEOUT_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    throw new RelayFailed({ kind: 'unreachable', detail: String(cause) });
  }
  const text = await response.text().catch(() => '');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const answer = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  if (response.status >= 500) throw new RelayFailed({ kind: 'relay_error', detail: `status ${response.status}` });
  if (response.status >= 400) {
    const code = typeof answer?.code === 'string' ? answer.code : '';
    if (response.status === 400 && DEVICE_ERROR_CODES.has(code)) {
      const msg = typeof answer?.msg === 'string' ? answer.msg : code;
      throw new RelayFailed({ kind: 'device_refused', code, msg });
    }
    throw new RelayFailed({ kind: 'server_refused', detail: `status ${response.status} ${code}`.trim() });
  }
  if (response.status !== 200 || answer === undefined) {
    throw new RelayFailed({ kind: 'relay_error', detail: `status ${response.status} without a JSON object` });
  }
  return answer;
}

/** What a client is told when the relay fails it: Zulip's codes, statuses and words. */
export function relayFailureError(failure: RelayFailure): ApiError {
  switch (failure.kind) {
    case 'unreachable':
      return new ApiError('FAILED_TO_CONNECT_BOUNCER', 'Network error while connecting to Zulip push notification service.', 502);
    case 'relay_error':
      return new ApiError(
        'INTERNAL_SERVER_ERROR_ON_BOUNCER',
        'Internal server error on Zulip push notification service, retry later.',
        502,
      );
    case 'server_refused':
      return adminActionRequired();
    case 'device_refused':
      return new ApiError(failure.code, failure.msg, 400);
  }
}

export function adminActionRequired(): ApiError {
  return new ApiError(
    'ADMIN_ACTION_REQUIRED',
    'Push notification configuration issue on server, contact the server administrator or retry later.',
    403,
  );
}

/** Runs a relay request on behalf of a client, turning its failure into the client's error. */
export async function relayForClient(stoa: Stoa, endpoint: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  try {
    return await postToRelay(stoa, endpoint, body);
  } catch (err) {
    if (err instanceof RelayFailed) throw relayFailureError(err.failure);
    throw err;
  }
}
