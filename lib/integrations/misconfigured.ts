import { ApiError, badRequest } from '../http/errors';
import type { WebhookRequest } from './types';

/**
 * The strings a payload must have, for integrations that the service's user configures by
 * hand (which fields to send): when one is missing, the bot's owner hears how to fix it and
 * the request is refused with "Invalid payload", as on Zulip.
 */
export function requiredFields<K extends string>(request: WebhookRequest, payload: any, keys: readonly K[], notice: string): Record<K, string> {
  const found = {} as Record<K, string>;
  for (const key of keys) {
    const value = payload !== null && typeof payload === 'object' ? payload[key] : undefined;
    if (typeof value !== 'string') throw misconfigured(request, notice);
    found[key] = value;
  }
  return found;
}

/** Tells the owner `notice` ({support} filled in) and returns the "Invalid payload" error to throw. */
export function misconfigured(request: WebhookRequest, notice: string): ApiError {
  request.tellOwner(notice.replace('{support}', request.supportAddress()));
  return badRequest('Invalid payload');
}
