import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import type { Config } from '../config';

const trustOf = new WeakMap<Config, ReturnType<typeof proxyAddr.compile>>();

/**
 * Where a request comes from, for the limits kept per client address (failed logins,
 * spectators): behind a trusted proxy, the client that proxy names in X-Forwarded-For;
 * otherwise the other end of the connection. A header from anyone else is ignored, so a
 * client cannot pick its own address.
 */
export function clientAddress(config: Config, req: IncomingMessage): string {
  let trust = trustOf.get(config);
  if (!trust) trustOf.set(config, (trust = proxyAddr.compile(config.trustedProxies)));
  if (!req.socket.remoteAddress) return '';
  return proxyAddr(req, trust);
}
