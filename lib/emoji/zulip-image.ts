import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../http/errors';
import { renderSvgToPng } from '../uploads/images';

/**
 * The picture of the `zulip` emoji (reaction type zulip_extra_emoji), where Zulip's clients
 * look for it. Stoa draws its own: a green disc with a white Z, made into a PNG on first use.
 */
export const ZULIP_EMOJI_IMAGE_PATH = '/static/generated/emoji/images/emoji/unicode/zulip.png';

const DRAWING = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <circle cx="32" cy="32" r="30" fill="#3f9a5a"/>
  <path d="M19 18h26v6L28 41h17v6H19v-6l17-17H19z" fill="#ffffff"/>
</svg>`;

let png: Promise<Buffer> | undefined;

export function serveZulipEmojiImage(_req: IncomingMessage, res: ServerResponse): void {
  png ??= renderSvgToPng(DRAWING);
  png.then(
    (bytes) => {
      res.statusCode = 200;
      res.setHeader('Content-Type', 'image/png');
      res.setHeader('Cache-Control', 'public, max-age=86400');
      res.end(bytes);
    },
    () => {
      png = undefined;
      const error = new ApiError('INTERNAL_SERVER_ERROR', 'The image could not be drawn', 500);
      res.statusCode = error.status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(error.body()));
    },
  );
}
