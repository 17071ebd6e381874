import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import type { NextFunction, Request, Response } from 'express';
import { spectatorEndpoint } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { makeThumbnail, THUMBNAIL_FORMATS } from './images';
import type { AttachmentRow } from './queries';
import { downloadable, pathIdOfToken } from './views';

/**
 * Downloads of uploaded files, outside /api/v1 as on Zulip: /user_uploads/{path_id} for
 * callers who may read the file (HTTP Basic, as for the API), /user_uploads/temporary/... for
 * anyone holding a fresh temporary URL, and /user_uploads/thumbnail/{path_id}/{format}.
 */

/** Types a browser may show in the page; anything else (HTML and SVG among them) is a download. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|application\/pdf|audio\/[\w.+-]+|video\/[\w.+-]+|text\/plain)$/;

/** Express 5 hands a wildcard parameter over as its segments. */
function joined(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join('/') : (value ?? '');
}

function send(res: Response, file: string, type: string, disposition: 'inline' | 'attachment', name: string): void {
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(name)}`);
  // An upload never runs in our pages, whatever it holds.
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox");
  res.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
  const stream = createReadStream(file);
  stream.on('error', () => {
    if (!res.headersSent) res.status(404).json(new ApiError('BAD_REQUEST', 'File not found', 404).body());
    else res.destroy();
  });
  stream.pipe(res);
}

/** Sends an upload to show in the page where its type allows, or (`download`) always to save. */
function sendUpload(stoa: Stoa, res: Response, row: AttachmentRow, download = false): void {
  const type = row.content_type ?? 'application/octet-stream';
  const inline = INLINE_TYPES.test(type);
  const disposition = inline && !download ? 'inline' : 'attachment';
  send(res, stoa.uploads.filePath(row.path_id), inline ? type : 'application/octet-stream', disposition, row.file_name);
}

/**
 * GET /user_uploads/{path_id}, and /user_uploads/download/{path_id} (`download`), which
 * Zulip's clients use for a "Download" button: the same file, always as an attachment.
 */
export function serveUpload(stoa: Stoa, download = false) {
  return (req: Request, res: Response, next: NextFunction): void => {
    try {
      sendUpload(stoa, res, downloadable(stoa, req.user, `${req.params.realm_id}/${joined(req.params.path)}`), download);
    } catch (err) {
      next(err);
    }
  };
}

export function serveTemporaryUpload(stoa: Stoa) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // Zulip's refusals, in its order: a token forged or expired, then a name that is not the file's.
    const pathId = pathIdOfToken(stoa, String(req.params.token));
    if (pathId === undefined) return next(badRequest('Invalid token'));
    if (pathId.split('/').at(-1) !== req.params.filename) return next(badRequest('Invalid filename'));
    const row = stoa.attachments.byPath(pathId);
    if (!row) return next(badRequest('Invalid token'));
    sendUpload(stoa, res, row);
  };
}

/** Thumbnails are made on first request and kept; they are always WebP. */
export function serveThumbnail(stoa: Stoa) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const segments = joined(req.params.path).split('/');
    const formatName = segments.pop()!;
    const format = THUMBNAIL_FORMATS.find((f) => f.name === formatName);
    let row: AttachmentRow;
    try {
      row = downloadable(stoa, req.user, segments.join('/'));
    } catch (err) {
      return next(err);
    }
    if (!format || row.width === null) return next(new ApiError('BAD_REQUEST', 'No such thumbnail', 404));
    const target = stoa.uploads.thumbnailPath(row.path_id, format.name);
    access(target)
      .catch(() => makeThumbnail(stoa.uploads.filePath(row.path_id), target, format))
      .then(
        () => send(res, target, 'image/webp', 'inline', `${row.file_name}.webp`),
        () => next(new ApiError('BAD_REQUEST', 'The thumbnail could not be made', 404)),
      );
  };
}

/**
 * GET /thumbnail?url=...&size=... (Zulip's route for images in messages before thumbnails had
 * their own URLs): for an upload's path (`user_uploads/{realm_id}/...`) it answers the
 * full-size file, with the access rules of /user_uploads, as Zulip does for uploads it made
 * no thumbnail for; `size` is not looked at. Zulip no longer fetches outside images here, and
 * neither does Stoa: any other URL is refused with 403.
 */
export const thumbnailOfUrlView = spectatorEndpoint<{ url: string; size: string }>({
  params: { properties: { url: { type: 'string' }, size: { type: 'string' } }, required: ['url', 'size'] },
  view: ({ stoa, user, params, res }) => {
    const upload = /^user_uploads\/(\d+\/.+)$/.exec(params.url);
    if (!upload) throw new ApiError('BAD_REQUEST', 'Only uploaded files are served here', 403);
    const row = downloadable(stoa, user, upload[1]);
    // Answered once the file is sent, so that no JSON success is written after it.
    return new Promise((resolve) => {
      res.once('close', () => resolve({}));
      sendUpload(stoa, res as Response, row);
    });
  },
});
