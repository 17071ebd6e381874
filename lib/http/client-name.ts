import type { IncomingMessage } from 'node:http';

/** Zulip keeps client names to this length. */
const MAX_CLIENT_NAME_LENGTH = 30;

/**
 * The name of the client making a request, as Zulip records it (a message's `client`): the
 * `client` parameter if given, else the product token of the User-Agent (`ZulipMobile/27.1
 * (Android 14)` is ZulipMobile), else "Unspecified".
 */
export function clientName(req: IncomingMessage, clientParam: string | undefined): string {
  const fromAgent = req.headers['user-agent']?.split('/')[0].trim();
  const name = clientParam?.trim() || fromAgent || 'Unspecified';
  return name.slice(0, MAX_CLIENT_NAME_LENGTH);
}

/** Clients whose users read what they send as they send it; other API clients' messages start unread. */
const INTERACTIVE_CLIENTS = new Set([
  'zulipandroid',
  'zulipios',
  'zulipdesktop',
  'zulipmobile',
  'zulipelectron',
  'zulipterminal',
  'snipe',
  'website',
  'ios',
  'android',
]);

/** Zulip's default for read_by_sender: read for interactive apps, unread for other API clients. */
export function defaultReadBySender(client: string): boolean {
  return INTERACTIVE_CLIENTS.has(client.toLowerCase());
}
