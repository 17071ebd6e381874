import type { IncomingMessage } from 'node:http';

/**
 * Whether the client takes gzip-compressed answers: its Accept-Encoding names gzip (or `*`)
 * without refusing it with a weight of zero (RFC 9110, section 12.5.3).
 */
export function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (header === undefined) return false;
  let star = false;
  for (const item of header.split(',')) {
    const [name, ...params] = item.split(';');
    const coding = name.trim().toLowerCase();
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    const weight = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const refused = weight !== undefined && Number(weight.slice(2)) === 0;
    if (coding === '*') star = !refused;
    else return !refused;
  }
  return star;
}
