import { rm } from 'node:fs/promises';
import type { Request } from 'express';
import { badRequest } from '../http/errors';
import type { FileReceiver, ReceivedFile } from '../http/params';
import type { Stoa } from '../stoa';

const MIB = 1024 * 1024;

/** Zulip's words for a file over a limit. */
export function fileTooLarge(limitMib: number) {
  return badRequest(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`);
}

/**
 * Where the file of an upload, an avatar or an emoji arrives: the store's incoming folder,
 * cut off one byte past the limit (enough to know it is too large; `checkFileSize` says so).
 */
export function fileReceiver(stoa: Stoa, limitMib: number, tooMany?: FileReceiver['tooMany']): FileReceiver {
  return {
    maxBytes: limitMib * MIB + 1,
    target: () => stoa.uploads.incomingPath(),
    tooLarge: () => fileTooLarge(limitMib),
    ...(tooMany ? { tooMany } : {}),
  };
}

export function checkFileSize(file: ReceivedFile, limitMib: number): void {
  if (file.size > limitMib * MIB) throw fileTooLarge(limitMib);
}

/** Bytes in a whole number of MiB. */
export function mib(count: number): number {
  return count * MIB;
}

/** Removes the files a request brought that nothing kept (placing a file moves it away first). */
export async function discardFiles(req: Request): Promise<void> {
  for (const file of req.files ?? []) await rm(file.path, { force: true });
}
