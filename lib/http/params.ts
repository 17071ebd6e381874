import { createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError, badRequest } from './errors';

/** Request bodies larger than this are refused with 413; Zulip's largest parameters are far smaller. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** More parameters than this in one request is never a real client. */
const MAX_PARAMETERS = 1000;

declare module 'express-serve-static-core' {
  interface Request {
    /** Form fields of the body, parsed from either encoding Zulip clients use. */
    bodyFields?: Map<string, string>;
    /** Files of a multipart body, on routes that take them (see parseBodyWithFiles). */
    files?: ReceivedFile[];
  }
}

function tooLarge(): ApiError {
  return new ApiError('BAD_REQUEST', `Request body too large (limit: ${MAX_BODY_BYTES} bytes)`, 413);
}

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

/** Django's QueryDict hands a view the last value of a repeated key; so do we. */
function lastValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length > 0) return lastValue(value[value.length - 1]);
  return undefined;
}

function toFieldMap(record: Record<string, unknown>): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [key, value] of Object.entries(record)) {
    const last = lastValue(value);
    if (last !== undefined) fields.set(key, last);
  }
  return fields;
}

// The body is read as text and parsed as the query string is (queryFields), so a parameter
// means the same in either place: undecodable escapes become U+FFFD, as in Django, instead of
// staying as typed as the qs package (body-parser's urlencoded) leaves them.
const urlencodedText = express.text({ type: () => true, limit: MAX_BODY_BYTES, defaultCharset: 'utf-8' });

/** Maps body-parser's failures to the API's error shape; it never answers a client itself. */
function urlencodedBody(req: Request, res: Response, next: NextFunction): void {
  urlencodedText(req, res, (err?: unknown) => {
    if (err) {
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') return next(tooLarge());
      return next(badRequest(`Malformed request body: ${(err as Error).message}`));
    }
    const text = typeof req.body === 'string' ? req.body : '';
    if (countParameters(text) > MAX_PARAMETERS) return next(tooLarge());
    req.bodyFields = toFieldMap(parseQueryString(text, '&', '=', { maxKeys: MAX_PARAMETERS }));
    next();
  });
}

function jsonBody(req: Request, res: Response, next: NextFunction): void {
  urlencodedText(req, res, (err?: unknown) => {
    if (err) {
      const type = (err as { type?: string }).type;
      return next(type === 'entity.too.large' ? tooLarge() : badRequest(`Malformed request body: ${(err as Error).message}`));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof req.body === 'string' ? req.body : '');
    } catch {
      return next(badRequest('Malformed JSON'));
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return next(badRequest('Malformed JSON'));
    const entries = Object.entries(parsed);
    if (entries.length > MAX_PARAMETERS) return next(tooLarge());
    req.bodyFields = new Map(entries.map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]));
    next();
  });
}

function countParameters(text: string): number {
  let count = 1;
  for (let at = text.indexOf('&'); at >= 0; at = text.indexOf('&', at + 1)) count++;
  return count;
}

/** A file that arrived in a multipart body, written (and synced) where the receiver said. */
export interface ReceivedFile {
  path: string;
  /** The name the client gave it. */
  fileName: string;
  /** The type the client declared; the receiver decides what it really is. */
  mimeType: string;
  size: number;
}

/** Where the files of a body that may carry them go: one at most, written to `target()`. */
export interface FileReceiver {
  maxBytes: number;
  target: () => Promise<string>;
  tooLarge: () => ApiError;
  /** The error for a second file; by default Zulip's word for uploads. */
  tooMany?: () => ApiError;
}

/** Writes an arriving file and syncs it, counting its bytes. */
async function writeFile(stream: NodeJS.ReadableStream, file: string): Promise<number> {
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    size += chunk.length;
  });
  await pipeline(stream, createWriteStream(file, { flags: 'wx' }));
  // Synced through a second descriptor: the data is the file's, whichever descriptor wrote it.
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  return size;
}

/**
 * zulip-js sends POST bodies as multipart/form-data; fields become parameters like any other.
 * Files are refused unless the route takes one (a receiver is given).
 */
function multipartBody(req: Request, next: NextFunction, receiver?: FileReceiver): void {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: {
        fieldSize: MAX_BODY_BYTES,
        fields: MAX_PARAMETERS,
        files: receiver ? 1 : 0,
        ...(receiver ? { fileSize: receiver.maxBytes } : {}),
      },
    });
  } catch (err) {
    return next(badRequest(`Malformed multipart body: ${(err as Error).message}`));
  }
  const fields = new Map<string, string>();
  const files: Array<Promise<ReceivedFile | undefined>> = [];
  let failure: ApiError | undefined;
  let received = 0;
  const maxBytes = MAX_BODY_BYTES + (receiver?.maxBytes ?? 0);
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes && !failure) {
      failure = tooLarge();
      req.unpipe(parser);
      finish();
    }
  });
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    void Promise.all(files).then((arrived) => {
      const written = arrived.filter((file): file is ReceivedFile => file !== undefined);
      if (failure) {
        for (const file of written) void rm(file.path, { force: true });
        // Stop reading a body we have already refused, without waiting for all of it.
        req.resume();
        return next(failure);
      }
      req.bodyFields = fields;
      req.files = written;
      next();
    });
  };
  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) failure ??= tooLarge();
    fields.set(name, value);
  });
  parser.on('file', (_name, stream, info) => {
    if (!receiver) return void stream.resume();
    stream.on('limit', () => {
      failure ??= receiver.tooLarge();
    });
    files.push(
      receiver.target().then(
        async (file) => ({ path: file, fileName: info.filename ?? '', mimeType: info.mimeType, size: await writeFile(stream, file) }),
        (err: unknown) => {
          stream.resume();
          failure ??= badRequest(`The file could not be stored: ${(err as Error).message}`);
          return undefined;
        },
      ),
    );
  });
  parser.on('filesLimit', () => {
    if (!receiver) failure ??= badRequest('File uploads are not accepted by this endpoint');
    else failure ??= receiver.tooMany?.() ?? badRequest('You may only upload one file at a time');
  });
  parser.on('fieldsLimit', () => {
    failure ??= tooLarge();
  });
  parser.on('error', (err: Error) => {
    failure ??= badRequest(`Malformed multipart body: ${err.message}`);
    finish();
  });
  parser.on('close', finish);
  req.pipe(parser);
}

/**
 * Parses a request body in either of the encodings Zulip accepts, for every method.
 * Any other content type with a non-empty body is refused rather than silently ignored.
 */
export const parseBody: RequestHandler = (req, res, next) => parseAnyBody(req, res, next);

/**
 * parseBody for a route that takes a file: it may arrive in a multipart body, and is written
 * where the receiver says. A file that arrives but is not kept is the view's to remove.
 */
export function parseBodyWithFiles(receiver: (req: Request) => FileReceiver): RequestHandler {
  return (req, res, next) => parseAnyBody(req, res, next, receiver(req));
}

/**
 * parseBody that also takes a JSON object, for the browser's sign-in endpoints (/accounts):
 * a page's fetch() sends JSON most naturally. Its values become parameters as Zulip clients
 * send them: strings as they are, anything else JSON-encoded.
 */
export const parseBodyOrJson: RequestHandler = (req, res, next) => parseAnyBody(req, res, next, undefined, true);

function parseAnyBody(req: Request, res: Response, next: NextFunction, receiver?: FileReceiver, acceptJson = false): void {
  req.files = [];
  if (!hasBody(req)) {
    req.bodyFields = new Map();
    return next();
  }
  const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType === 'application/x-www-form-urlencoded') return urlencodedBody(req, res, next);
  if (contentType === 'multipart/form-data') return multipartBody(req, next, receiver);
  if (acceptJson && contentType === 'application/json') return jsonBody(req, res, next);
  next(
    badRequest(
      `Unsupported Content-Type '${contentType || '(none)'}': send parameters as ` +
        'application/x-www-form-urlencoded or multipart/form-data',
    ),
  );
}

/** The parameters of a URL's query string, parsed as Express's default ("simple") parser does. */
export function queryFields(url: string): Map<string, string> {
  const start = url.indexOf('?');
  return start < 0 ? new Map() : toFieldMap(parseQueryString(url.slice(start + 1), '&', '=', { maxKeys: MAX_PARAMETERS }));
}

/** All request parameters by name: body fields first, then the query string, for every method. */
export function requestParams(req: Request): Map<string, string> {
  const params = queryFields(req.originalUrl);
  for (const [name, value] of req.bodyFields ?? []) params.set(name, value);
  return params;
}
