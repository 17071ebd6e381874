import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { canDownload, spectatorCanDownload } from './access';
import { addAttachment, removeAttachment } from './actions';
import { probeImage } from './images';
import { presentAttachment, uploadUrl } from './present';
import type { AttachmentRow } from './queries';
import { checkFileSize, discardFiles, fileReceiver, mib } from './receive';
import { UploadStore } from './storage';

/** POST /user_uploads: stores one file and answers where it is. Only its owner may read it until a message links it. */
export const uploadFileView = endpoint({
  params: NO_PARAMS,
  fileReceiver: (stoa) => fileReceiver(stoa, stoa.config.maxFileUploadSizeMib),
  view: async ({ stoa, user, req }) => {
    const files = (req as Request).files ?? [];
    try {
      if (files.length === 0) throw badRequest('You must specify a file to upload');
      const [file] = files;
      if (file.size === 0) throw badRequest('The uploaded file is empty');
      checkFileSize(file, stoa.config.maxFileUploadSizeMib);
      const quota = stoa.config.uploadQuotaMib;
      if (quota !== undefined && stoa.attachments.spaceUsed() + file.size > mib(quota)) {
        throw badRequest("Upload would exceed your organization's upload quota.");
      }
      const image = await probeImage(file.path);
      const fileName = file.fileName === '' ? 'uploaded-file' : file.fileName;
      const pathId = UploadStore.newPathId(stoa.realm.get()!.id, fileName);
      await stoa.uploads.place(file.path, pathId);
      addAttachment(stoa, {
        path_id: pathId,
        file_name: fileName,
        owner_id: user.id,
        size: file.size,
        create_time: stoa.clock.now(),
        // An image is what sharp found. A file that only claims to be one is not believed.
        content_type: image?.contentType ?? (file.mimeType.startsWith('image/') ? null : file.mimeType || null),
        width: image?.width ?? null,
        height: image?.height ?? null,
        animated: image?.animated ? 1 : 0,
      });
      const url = uploadUrl(pathId);
      return { uri: url, url, filename: fileName };
    } finally {
      await discardFiles(req as Request);
    }
  },
});

export const getAttachments = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => ({
    attachments: stoa.attachments.ofOwner(user.id).map((row) => presentAttachment(stoa, row)),
    upload_space_used: stoa.attachments.spaceUsed(),
  }),
});

export const removeAttachmentView = endpoint<{ attachment_id: number }>({
  pathPatterns: { attachment_id: /^\d+$/ },
  params: { properties: { attachment_id: { type: 'integer' } }, required: ['attachment_id'] },
  view: ({ stoa, user, params }) => {
    const row = stoa.attachments.byId(params.attachment_id);
    if (!row || row.owner_id !== user.id) throw badRequest('Invalid attachment');
    removeAttachment(stoa, row);
    return {};
  },
});

/**
 * The upload at a path ID, if the user (or a visitor, when undefined) may download it;
 * Zulip's 404 or 403 otherwise, in its words (which the browser's addresses send as a page).
 */
export function downloadable(stoa: Stoa, user: UserRow | undefined, pathId: string): AttachmentRow {
  const row = stoa.attachments.byPath(pathId);
  if (!row) throw new ApiError('BAD_REQUEST', 'This file does not exist or has been deleted.', 404);
  const allowed = user ? canDownload(stoa, user, row) : spectatorCanDownload(stoa, row);
  if (!allowed) throw new ApiError('BAD_REQUEST', 'You are not authorized to view this file.', 403);
  return row;
}

/** Temporary URLs last a minute, as on Zulip: long enough to hand to another program. */
const TEMPORARY_URL_MS = 60_000;
/** Signs temporary URLs; a restart invalidates the few that are still fresh. */
const SIGNING_KEY = randomBytes(32);

function signature(payload: string): Buffer {
  return createHmac('sha256', SIGNING_KEY).update(payload).digest();
}

/** A URL that serves the file without authentication until it expires. */
export function temporaryUrl(stoa: Stoa, row: AttachmentRow): string {
  const payload = Buffer.from(JSON.stringify([row.path_id, stoa.clock.now() + TEMPORARY_URL_MS])).toString('base64url');
  const token = `${payload}.${signature(payload).toString('base64url')}`;
  return `/user_uploads/temporary/${token}/${encodeURIComponent(row.path_id.split('/').at(-1)!)}`;
}

/** The path ID a temporary URL's token stands for, while it is valid. */
export function pathIdOfToken(stoa: Stoa, token: string): string | undefined {
  const [payload, mac] = token.split('.');
  if (!payload || !mac) return undefined;
  const given = Buffer.from(mac, 'base64url');
  const expected = signature(payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const [pathId, expires] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as [string, number];
  return stoa.clock.now() <= expires ? pathId : undefined;
}

/** GET /user_uploads/{realm_id_str}/{filename}: a temporary URL for a file the caller may read. */
/**
 * GET /thumbnail/status/{realm_id_str}/{filename} (level 479), which clients poll until an
 * image's thumbnail is ready. Stoa makes a thumbnail when it is first asked for, so every
 * image has one ready to serve. Only the uploader may ask, and only of an image, as on Zulip:
 * anything else is "Invalid attachment".
 */
export const thumbnailStatusView = endpoint<{ realm_id_str: number; filename: string }>({
  pathPatterns: { realm_id_str: /^\d+$/ },
  params: { properties: { realm_id_str: { type: 'integer' }, filename: { type: 'string' } }, required: ['realm_id_str', 'filename'] },
  view: ({ stoa, user, params }) => {
    const row = stoa.attachments.byPath(`${params.realm_id_str}/${params.filename}`);
    if (!row || row.owner_id !== user.id || row.width === null) throw badRequest('Invalid attachment');
    return { has_thumbnail: true };
  },
});

export const temporaryUrlView = endpoint<{ realm_id_str: number; filename: string }>({
  pathPatterns: { realm_id_str: /^\d+$/ },
  params: { properties: { realm_id_str: { type: 'integer' }, filename: { type: 'string' } }, required: ['realm_id_str', 'filename'] },
  view: ({ stoa, user, params }) => {
    return { url: temporaryUrl(stoa, downloadable(stoa, user, `${params.realm_id_str}/${params.filename}`)) };
  },
});
