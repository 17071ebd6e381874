import { createReadStream } from 'node:fs';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../http/errors';
import type { Stoa } from '../stoa';
import { emojiPathId } from './present';

const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

function notFound() {
  return new ApiError('BAD_REQUEST', 'File not found', 404);
}

/** Animated emoji, the only ones with a still frame, are GIF or WebP. */
const ANIMATED_EXTENSIONS = ['gif', 'webp'];

/**
 * The path ID of the recorded emoji file a request names (`<file>`, or `still/<stem>.png`
 * for an animated one's still frame), found by file name; undefined for anything else.
 */
function recordedPathId(stoa: Stoa, rest: string): string | undefined {
  const realmId = stoa.realm.get()!.id;
  const still = /^still\/([^/]+)\.png$/.exec(rest);
  if (!still) {
    const row = stoa.realmEmoji.byFileName(rest);
    return row ? emojiPathId(realmId, row) : undefined;
  }
  for (const extension of ANIMATED_EXTENSIONS) {
    const row = stoa.realmEmoji.byFileName(`${still[1]}.${extension}`);
    if (row?.is_animated) return emojiPathId(realmId, row, true);
  }
  return undefined;
}

/**
 * GET /user_avatars/{realm_id}/emoji/images/{file}: a custom emoji's image, deactivated ones
 * included, without authentication, as on Zulip (emoji show in notifications and in pages
 * that carry no credentials). Only the files of recorded emoji are served, so the path can
 * never reach anything else in the store.
 */
export function serveRealmEmoji(stoa: Stoa) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const rest = Array.isArray(req.params.path) ? req.params.path.join('/') : String(req.params.path ?? '');
    const pathId = `emoji/${req.params.realm_id}/${rest}`;
    if (pathId !== recordedPathId(stoa, rest)) return next(notFound());
    const type = TYPES[pathId.split('.').at(-1)!] ?? 'application/octet-stream';
    res.setHeader('Content-Type', type);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    // File names are random and never reused, so a copy never goes stale.
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    const stream = createReadStream(stoa.uploads.filePath(pathId));
    stream.on('error', () => {
      if (!res.headersSent) next(notFound());
      else res.destroy();
    });
    stream.pipe(res);
  };
}
