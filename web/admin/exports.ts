import { signal } from '@preact/signals';

/** One data export of the organization, as GET /export/realm and realm_export events give it. */
export interface RealmExport {
  id: number;
  export_time: number;
  acting_user_id: number;
  export_url: string | null;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  pending: boolean;
  export_type: string;
}

/** The organization's exports, newest first; null until the data exports page first loads them. */
export const realmExports = signal<RealmExport[] | null>(null);

export function setRealmExports(exports: RealmExport[]): void {
  realmExports.value = [...exports].sort((a, b) => b.export_time - a.export_time);
}

/** A realm_export event: every export's state as it is now (one started, finished, failed or deleted). */
export function onRealmExportEvent(event: Record<string, unknown>): void {
  if (Array.isArray(event.exports)) setRealmExports(event.exports as RealmExport[]);
}
