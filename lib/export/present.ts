import type { Stoa } from '../stoa';
import type { RealmExportRow } from './queries';
import { EXPORT_TYPE_NAMES } from './zulip-format';

/** The URL path of an export's tarball, served to administrators only. */
export const EXPORTS_URL_PATH = '/user_uploads/exports';

/** An export as GET /export/realm and the realm_export event give it. */
export function presentRealmExport(stoa: Stoa, row: RealmExportRow): Record<string, unknown> {
  return {
    id: row.id,
    export_time: row.date_requested,
    acting_user_id: row.acting_user_id,
    export_url: row.date_succeeded !== null && row.date_deleted === null && row.file_path ? `${stoa.site}${EXPORTS_URL_PATH}/${row.file_path}` : null,
    deleted_timestamp: row.date_deleted,
    failed_timestamp: row.date_failed,
    pending: row.date_succeeded === null && row.date_failed === null,
    export_type: EXPORT_TYPE_NAMES[row.export_type],
  };
}

export function presentRealmExports(stoa: Stoa): Record<string, unknown>[] {
  return stoa.exports.all().map((row) => presentRealmExport(stoa, row));
}
