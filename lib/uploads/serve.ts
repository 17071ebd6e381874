import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import type { NextFunction, Request, Response } from 'express';
import { spectatorEndpoint } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { makeThumbnail, renderSvgToPng, THUMBNAIL_FORMATS } from './images';
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

/** Drawn once when first needed: a crossed-out picture for a missing file, a padlock for a forbidden one. */
const MISSING_PICTURE = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="90" viewBox="0 0 120 90">
  <rect width="120" height="90" rx="6" fill="#e4e4e7"/>
  <path d="M20 70l25-28 17 18 12-12 26 22z" fill="#a1a1aa"/>
  <path d="M30 15l60 60M90 15l-60 60" stroke="#71717a" stroke-width="6" stroke-linecap="round"/>
</svg>`;
const FORBIDDEN_PICTURE = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="90" viewBox="0 0 120 90">
  <rect width="120" height="90" rx="6" fill="#e4e4e7"/>
  <path d="M48 42v-10a12 12 0 0 1 24 0v10" fill="none" stroke="#71717a" stroke-width="6"/>
  <rect x="40" y="42" width="40" height="30" rx="4" fill="#71717a"/>
</svg>`;
const pictures = new Map<string, Promise<Buffer>>();

function sendPicture(res: Response, next: NextFunction, status: number, svg: string): void {
  let png = pictures.get(svg);
  if (!png) pictures.set(svg, (png = renderSvgToPng(svg)));
  png.then(
    (bytes) => {
      res.status(status).setHeader('Content-Type', 'image/png');
      res.end(bytes);
    },
    (err: unknown) => {
      pictures.delete(svg);
      next(err);
    },
  );
}

/**
 * A file refused at one of the browser's addresses (/user_uploads/...), answered as Zulip's
 * serve_file does rather than as JSON: a picture for an `<img>`, else a short page in Zulip's
 * words; a visitor who is not logged in is sent to log in instead of being told "forbidden".
 */
function refuseFile(req: Request, res: Response, next: NextFunction, err: unknown, visitor = !req.user): void {
  if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 403)) return next(err);
  res.setHeader('Vary', 'Accept');
  const missing = err.status === 404;
  // A picture where the browser asked for images first (an `<img>`), else a page (Express weighs the Accept header).
  if (req.accepts(['text/html', 'image/png']) === 'image/png') return sendPicture(res, next, err.status, missing ? MISSING_PICTURE : FORBIDDEN_PICTURE);
  if (!missing && visitor) {
    // Django's redirect_to_login: the path to come back to, with its slashes left as they are.
    res.redirect(302, `/login/?next=${encodeURIComponent(req.originalUrl).replace(/%2F/g, '/')}`);
    return;
  }
  res.status(err.status).type('text/html; charset=utf-8').send(`<p>${err.message}</p>`);
}

/**
 * GET /user_uploads/{path_id}, and /user_uploads/download/{path_id} (`download`), which
 * Zulip's clients use for a "Download" button: the same file, always as an attachment.
 */
export function serveUpload(stoa: Stoa, download = false) {
  return (req: Request, res: Response, next: NextFunction): void => {
    let row: AttachmentRow;
    try {
      row = downloadable(stoa, req.user, `${req.params.realm_id}/${joined(req.params.path)}`);
    } catch (err) {
      return refuseFile(req, res, next, err);
    }
    sendUpload(stoa, res, row, download);
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
      return refuseFile(req, res, next, err);
    }
    // Zulip answers its "no such image" picture whatever the browser asked for.
    if (!format || row.width === null) return sendPicture(res, next, 404, MISSING_PICTURE);
    const target = stoa.uploads.thumbnailPath(row.path_id, format.name);
    access(target)
      .catch(() => makeThumbnail(stoa.uploads.filePath(row.path_id), target, format))
      .then(
        () => send(res, target, 'image/webp', 'inline', `${row.file_name}.webp`),
        () => sendPicture(res, next, 404, MISSING_PICTURE),
      );
  };
}

/**
 * GET /thumbnail?url=...&size=... (Zulip's route for images in messages before thumbnails had
 * their own URLs): for an upload's path (`user_uploads/{realm_id}/...`) it answers the
 * full-size file, with the access rules and refusals of /user_uploads, as Zulip does for
 * uploads it made no thumbnail for; `size` is not looked at. Zulip no longer fetches outside
 * images here, and neither does Stoa: any other URL is refused with an empty 403, as on Zulip.
 */
export const thumbnailOfUrlView = spectatorEndpoint<{ url: string; size: string }>({
  params: { properties: { url: { type: 'string' }, size: { type: 'string' } }, required: ['url', 'size'] },
  view: ({ stoa, user, params, req, res }) =>
    // Answered once the response is sent, so that no JSON is written after it.
    new Promise((resolve, reject) => {
      const response = res as Response;
      response.once('close', () => resolve({}));
      const upload = /^user_uploads\/(\d+\/.+)$/.exec(params.url);
      if (!upload) {
        response.status(403).type('text/html; charset=utf-8').end();
        return;
      }
      let row: AttachmentRow;
      try {
        row = downloadable(stoa, user, upload[1]);
      } catch (err) {
        refuseFile(req as Request, response, reject, err, user === undefined);
        return;
      }
      sendUpload(stoa, response, row);
    }),
});
