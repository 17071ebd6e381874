import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { emojiNamesByCode } from '../markdown/emoji';

/**
 * The emoji data clients download from `server_emoji_data_url`: every Unicode emoji this
 * server accepts, as `code_to_names` (canonical name first). It is the same for the life of
 * a build, so its name carries a hash of its content and browsers may keep it forever.
 */
let body: { text: string; path: string } | undefined;

function emojiData(): { text: string; path: string } {
  if (!body) {
    const text = JSON.stringify({ code_to_names: emojiNamesByCode() });
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
    body = { text, path: `${EMOJI_DATA_FOLDER}/emoji_api.${hash}.json` };
  }
  return body;
}

/** The path of the emoji data, under the server's root. */
export function emojiDataPath(): string {
  return emojiData().path;
}

/** Where the emoji data's path is, whatever its hash; serveEmojiData answers only the current one. */
export const EMOJI_DATA_FOLDER = '/static/generated/emoji';

/**
 * Serves the emoji data to anyone, without authentication, as Zulip serves its static files.
 * Routed by folder, so that the data and its hash are made on first use, not at start.
 */
export function serveEmojiData(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (req.url?.split('?')[0] !== emojiDataPath()) return next();
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.end(emojiData().text);
}
