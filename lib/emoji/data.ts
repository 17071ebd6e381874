import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EMOJI_NAMES_BY_CODE } from '../markdown/emoji';

/**
 * The emoji data clients download from `server_emoji_data_url`: every Unicode emoji this
 * server accepts, as `code_to_names` (canonical name first). It is the same for the life of
 * a build, so its name carries a hash of its content and browsers may keep it forever.
 */
let body: { text: string; path: string } | undefined;

function emojiData(): { text: string; path: string } {
  if (!body) {
    const text = JSON.stringify({ code_to_names: EMOJI_NAMES_BY_CODE });
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
    body = { text, path: `/static/generated/emoji/emoji_api.${hash}.json` };
  }
  return body;
}

/** The path of the emoji data, under the server's root. */
export function emojiDataPath(): string {
  return emojiData().path;
}

/** Serves the emoji data to anyone, without authentication, as Zulip serves its static files. */
export function serveEmojiData(_req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.end(emojiData().text);
}
