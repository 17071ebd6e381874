import Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Db, SCHEMA_VERSION } from '../db';
import { Avatars } from '../users/avatars';
import { emojiPathId } from '../realm-emoji/present';
import { UploadStore } from '../uploads/storage';
import { buildZulipExport, type ExportSources } from './build';
import type { ExportTypeValue, ZulipExport } from './zulip-format';

/** A database file whose schema this Stoa does not read: older, or from a newer Stoa. */
export class ExportSchemaError extends Error {}

/** Where the files of a data folder's uploads, avatars and emoji are. */
export function dataFolderSources(uploads: UploadStore, realmId: () => number): ExportSources {
  const avatars = new Avatars(false, realmId);
  return {
    upload: (pathId) => uploads.filePath(pathId),
    avatar: (userId) => uploads.avatarPath(avatars.fileName(userId, true)),
    emojiPathId: (id, fileName) => emojiPathId(id, { file_name: fileName }),
  };
}

/**
 * Reads an export from a database file through a connection of its own, inside one read
 * transaction: SQLite's WAL keeps that transaction's snapshot while a running server goes on
 * writing, so the export is consistent without stopping anyone. Between batches of messages
 * it gives the event loop a turn, so a server exporting its own file keeps answering.
 */
export async function exportFromFile(file: string, type: ExportTypeValue, sources: (db: Db) => ExportSources): Promise<ZulipExport> {
  const db = new Database(file, { fileMustExist: true, timeout: 5000 });
  try {
    // Never writes: the snapshot is read-only even if this code had a bug.
    db.pragma('query_only = ON');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== SCHEMA_VERSION) {
      throw new ExportSchemaError(
        version < SCHEMA_VERSION
          ? `the database is from an older Stoa (schema ${version}, this one reads ${SCHEMA_VERSION}); start this Stoa on it once to upgrade it, then export`
          : `the database is from a newer Stoa (schema ${version}); export with that version`,
      );
    }
    db.exec('BEGIN');
    try {
      return await buildZulipExport(db, { type, sources: sources(db), pause: () => nextTurn() });
    } finally {
      db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
}

/** The same from the server's own connection, for a database that lives only in memory. */
export function exportFromConnection(db: Db, type: ExportTypeValue, sources: ExportSources): Promise<ZulipExport> {
  // No pauses: between them the server's own writes would change what is read.
  return buildZulipExport(db, { type, sources });
}

/** The organization's ID in a database (there is one organization, but its ID is stored). */
export function realmIdOf(db: Db): number {
  return (db.prepare('SELECT id FROM realm WHERE id = 1').get() as { id: number } | undefined)?.id ?? 1;
}
