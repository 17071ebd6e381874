import { createReadStream } from 'node:fs';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../http/errors';
import type { Stoa } from '../stoa';
import { emojiPathIds } from './present';

const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

function notFound() {
  return new ApiError('BAD_REQUEST', 'File not found', 404);
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
    if (!emojiPathIds(stoa).includes(pathId)) return next(notFound());
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
