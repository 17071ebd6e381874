import type { Statements } from '../db';

export interface RealmExportRow {
  id: number;
  acting_user_id: number;
  export_type: 1 | 2;
  date_requested: number;
  date_succeeded: number | null;
  date_failed: number | null;
  date_deleted: number | null;
  /** Relative to the exports folder; set once the tarball is written. */
  file_path: string | null;
  size: number | null;
  sha256: string | null;
}

export function prepareExportQueries(db: Statements) {
  const all = db.prepare<[], RealmExportRow>('SELECT * FROM realm_exports ORDER BY id');
  const byId = db.prepare<[number], RealmExportRow>('SELECT * FROM realm_exports WHERE id = ?');
  const byFilePath = db.prepare<[string], RealmExportRow>('SELECT * FROM realm_exports WHERE file_path = ?');
  const requestedSince = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM realm_exports WHERE date_requested >= ?');
  const insert = db.prepare<[number, number, number]>(
    'INSERT INTO realm_exports (acting_user_id, export_type, date_requested) VALUES (?, ?, ?)',
  );
  const succeed = db.prepare<[number, string, number, string, number]>(
    'UPDATE realm_exports SET date_succeeded = ?, file_path = ?, size = ?, sha256 = ? WHERE id = ?',
  );
  const fail = db.prepare<[number, number]>('UPDATE realm_exports SET date_failed = ? WHERE id = ?');
  const markDeleted = db.prepare<[number, number]>('UPDATE realm_exports SET date_deleted = ? WHERE id = ?');
  const failPending = db.prepare<[number]>(
    'UPDATE realm_exports SET date_failed = ? WHERE date_succeeded IS NULL AND date_failed IS NULL',
  );
  return {
    all: () => all.all(),
    byId: (id: number) => byId.get(id),
    byFilePath: (filePath: string) => byFilePath.get(filePath),
    requestedSince: (time: number) => requestedSince.get(time)!.n,
    insert: (actingUserId: number, type: number, time: number) => Number(insert.run(actingUserId, type, time).lastInsertRowid),
    succeed: (id: number, time: number, filePath: string, size: number, sha256: string) => void succeed.run(time, filePath, size, sha256, id),
    fail: (id: number, time: number) => void fail.run(time, id),
    markDeleted: (id: number, time: number) => void markDeleted.run(time, id),
    /** Exports a stopped server was still writing can never finish. */
    failPending: (time: number) => failPending.run(time).changes,
  };
}
