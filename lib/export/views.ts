import type { NextFunction, Request, Response } from 'express';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { userSettings } from '../users/settings-store';
import { deleteExport, exportsRoot, requestExport } from './actions';
import { presentRealmExports } from './present';
import { EXPORT_TYPE_NAMES, ExportType, type ExportTypeValue } from './zulip-format';
import { requireAdministrator, requireOwner } from '../users/access';

/** Zulip's limit: this many exports an organization may ask for in a week. */
export const EXPORTS_PER_WEEK = 5;
const WEEK_SECONDS = 7 * 24 * 60 * 60;

export const listExports = endpoint({
  params: NO_PARAMS,
  authorize: requireAdministrator,
  view: ({ stoa }) => {
    return { exports: presentRealmExports(stoa) };
  },
});

/**
 * POST /export/realm: the export type by name (level 449). A full export without consent is for
 * owners, and only in an organization whose owners may read all its content
 * (owner_full_content_access, set by `stoa owner-full-content-access`).
 */
export const createExport = endpoint<{ export_type: string }>({
  params: { properties: { export_type: { type: 'string', enum: Object.values(EXPORT_TYPE_NAMES), default: 'public' } } },
  authorize: requireAdministrator,
  view: ({ stoa, user, params }) => {
    const type = exportTypeNamed(params.export_type);
    if (type === ExportType.FULL_WITHOUT_CONSENT) {
      requireOwner(user);
      if (stoa.realm.get()!.owner_full_content_access !== 1) {
        throw badRequest('Full exports without member consent are not allowed in this organization.');
      }
    }
    if (stoa.exports.requestedSince(stoa.clock.now() / 1000 - WEEK_SECONDS) >= EXPORTS_PER_WEEK) {
      throw badRequest('Exceeded rate limit.');
    }
    return { id: requestExport(stoa, user.id, type) };
  },
});

function exportTypeNamed(name: string): ExportTypeValue {
  const [value] = Object.entries(EXPORT_TYPE_NAMES).find(([, typeName]) => typeName === name)!;
  return Number(value) as ExportTypeValue;
}

/** DELETE /export/realm/{export_id}: a finished export's file is removed, with Zulip's refusals otherwise. */
export const removeExport = endpoint<{ export_id: number }>({
  pathPatterns: { export_id: /^\d+$/ },
  params: { properties: { export_id: { type: 'integer' } }, required: ['export_id'] },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    const row = stoa.exports.byId(params.export_id);
    if (!row) throw badRequest('Invalid data export ID');
    if (row.date_deleted !== null) throw badRequest('Export already deleted');
    if (row.date_failed !== null) throw badRequest('Export failed, nothing to delete');
    if (row.date_succeeded === null || row.file_path === null) throw badRequest('Export still in progress');
    deleteExport(stoa, row.id, row.file_path);
    return {};
  },
});

export const exportConsents = endpoint({
  params: NO_PARAMS,
  authorize: requireAdministrator,
  view: ({ stoa }) => {
    const people = stoa.users.inRealm().filter((u) => u.is_active === 1 && u.is_bot === 0);
    return {
      export_consents: people.map((u) => ({ user_id: u.id, consented: userSettings(stoa, u).allow_private_data_export === true })),
    };
  },
});

/**
 * GET /user_uploads/exports/{folder}/{file}: an export's tarball, for administrators only
 * (authenticated as for the API). The folder holds a random part, so its URL cannot be guessed.
 */
export function serveExport(stoa: Stoa) {
  return (req: Request, res: Response, next: NextFunction): void => {
    try {
      requireAdministrator(req.user!);
      const filePath = `${String(req.params.folder)}/${String(req.params.file)}`;
      const row = stoa.exports.byFilePath(filePath);
      if (!row || row.date_deleted !== null) throw new ApiError('BAD_REQUEST', 'File not found', 404);
      res.setHeader('Content-Type', 'application/gzip');
      res.setHeader('Content-Disposition', `attachment; filename="${String(req.params.file)}"`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'private, no-store');
      const stream = createReadStream(path.join(exportsRoot(stoa), filePath));
      stream.on('error', () => {
        if (!res.headersSent) res.status(404).json(new ApiError('BAD_REQUEST', 'File not found', 404).body());
        else res.destroy();
      });
      stream.pipe(res);
    } catch (err) {
      next(err);
    }
  };
}
