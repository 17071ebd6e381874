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

/** The User-Agent product tokens of Zulip's official mobile apps: the Flutter app and the older React Native one. */
const ZULIP_MOBILE_APPS = ['ZulipFlutter', 'ZulipMobile'];

/**
 * Whether the request comes from one of Zulip's official mobile apps, by its User-Agent alone
 * (a `client` parameter names the sending client of a message, not the software decoding
 * our answer). These apps accept only Zulip's own names for some enumerations.
 */
export function isZulipMobileApp(req: IncomingMessage): boolean {
  const agent = req.headers['user-agent'] ?? '';
  return ZULIP_MOBILE_APPS.some((app) => agent.startsWith(app));
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
