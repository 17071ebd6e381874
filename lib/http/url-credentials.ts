/**
 * For requests the server makes to URLs an administrator or user configured (the push relay,
 * outgoing-webhook bots): credentials written in the URL (https://id:key@host/) travel as HTTP
 * Basic authentication, as Python's requests sends them. fetch refuses a URL holding them.
 */
export function withoutCredentials(configured: URL): { url: URL; authorization?: string } {
  if (!configured.username && !configured.password) return { url: configured };
  const url = new URL(configured);
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  return { url, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}
