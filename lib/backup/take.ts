import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SCHEMA_VERSION } from '../db';
import { DATABASE_FILE } from '../first-start';

/** What a backup holds besides the data folder's own files: which Stoa wrote it, and when. */
export const MANIFEST_FILE = 'stoa-backup.json';
export const BACKUP_FORMAT = 'stoa-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** The data folder's owner zuliprc (lib/server.ts writes it again at every start). */
const ZULIPRC_FILE = 'zuliprc';
const UPLOADS = 'uploads';
/** Under uploads/: arrivals not yet stored, and thumbnails made again on demand. Neither is data. */
const NOT_BACKED_UP = new Set(['.incoming', '.thumbnails']);
/** Where a backup is laid out, inside the data folder (so files can be hard-linked), until it is packed. */
const STAGING_PREFIX = '.stoa-backup-';
/** SQLite pages copied per turn of the event loop: 4 MB at the default page size. */
const PAGES_PER_STEP = 1024;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  format_version: number;
  /** The database's schema version; a Stoa older than this cannot start on it. */
  schema_version: number;
  created_at: string;
  messages: number;
  files: number;
}

export interface WrittenBackup {
  file: string;
  size: number;
  manifest: BackupManifest;
}

/** A backup's file name for a moment: stoa-backup-20261128-004500.tar.gz (UTC). */
export function backupFileName(at: Date): string {
  return `stoa-backup-${at.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}.tar.gz`;
}

/**
 * Writes a backup of a data folder, served or not, as one gzipped tarball laid out as the
 * data folder is (stoa.db, uploads/, zuliprc) plus a small manifest.
 *
 * The database is copied by SQLite's online backup from a connection of this process's own,
 * inside one read transaction: in WAL mode that transaction sees one moment of the database
 * while the server goes on writing, and the server never waits for it. The copy advances a
 * few megabytes per turn of the event loop, so a server backing itself up keeps answering.
 *
 * Files are hard-linked (copied where links are not possible) into a folder beside the
 * database, once before the database's moment is fixed and once after: a stored file is in
 * place before the row naming it is committed, and removed only after that row is deleted,
 * so every file the copied database names is caught by one of the two passes, and a file
 * deleted meanwhile lives on in its link.
 *
 * The tarball is written under a temporary name (FILE.partial) and renamed only once whole
 * and synced: a backup killed halfway never replaces or corrupts a good one.
 */
export async function takeBackup(dataFolder: string, output: string, now: () => Date = () => new Date()): Promise<WrittenBackup> {
  const databaseFile = path.join(dataFolder, DATABASE_FILE);
  if (!existsSync(databaseFile)) throw new Error(`no database at ${databaseFile}`);
  await removeAbandonedStaging(dataFolder);
  const staging = await mkdtemp(path.join(dataFolder, `${STAGING_PREFIX}${process.pid}-`));
  const partial = `${output}.partial`;
  try {
    const uploads = path.join(dataFolder, UPLOADS);
    const linkedUploads = path.join(staging, UPLOADS);
    await linkTree(uploads, linkedUploads, NOT_BACKED_UP);
    const db = new Database(databaseFile, { readonly: true, fileMustExist: true, timeout: 5000 });
    let manifest: BackupManifest;
    try {
      const schemaVersion = db.pragma('user_version', { simple: true }) as number;
      if (schemaVersion > SCHEMA_VERSION) throw new Error(`the database is from a newer Stoa (schema ${schemaVersion}); back it up with that version`);
      // The read transaction starts with its first read, and from then on this connection sees
      // the database as it was at that moment, whatever the server commits.
      db.exec('BEGIN');
      const messages = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
      try {
        await linkTree(uploads, linkedUploads, NOT_BACKED_UP);
        // The online backup uses the open transaction instead of starting its own, so every step
        // copies pages of the same moment.
        await db.backup(path.join(staging, DATABASE_FILE), { progress: () => PAGES_PER_STEP });
      } finally {
        db.exec('COMMIT');
      }
      manifest = {
        format: BACKUP_FORMAT,
        format_version: BACKUP_FORMAT_VERSION,
        schema_version: schemaVersion,
        created_at: now().toISOString(),
        messages,
        files: await countFiles(linkedUploads),
      };
    } finally {
      db.close();
    }
    if (existsSync(path.join(dataFolder, ZULIPRC_FILE))) await copyFile(path.join(dataFolder, ZULIPRC_FILE), path.join(staging, ZULIPRC_FILE));
    await writeFile(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);

    const entries = (await readdir(staging)).sort((a, b) => (a === MANIFEST_FILE ? -1 : b === MANIFEST_FILE ? 1 : a.localeCompare(b)));
    // Created first, readable by its owner only: a backup holds password hashes and API keys.
    await (await open(partial, 'w', 0o600)).close();
    // Loaded here, not at start-up: tar is tens of milliseconds and megabytes few servers need.
    const tar = require('tar') as typeof import('tar');
    await tar.c({ gzip: true, file: partial, cwd: staging, portable: true }, entries);
    await syncFile(partial);
    await rename(partial, output);
    await syncFile(path.dirname(path.resolve(output)));
    return { file: output, size: (await stat(output)).size, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/**
 * Hard-links every file under `from` into the same place under `to`, skipping what is there
 * already and, at the top, the entries named in `skip`.
 */
async function linkTree(from: string, to: string, skip: ReadonlySet<string> = new Set()): Promise<void> {
  let entries;
  try {
    entries = await readdir(from, { withFileTypes: true });
  } catch (err) {
    // No uploads yet, or a folder removed while we walked: nothing to link.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  await mkdir(to, { recursive: true });
  for (const entry of entries) {
    if (skip.has(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isFile()) await linkFile(source, target);
  }
}

async function linkFile(source: string, target: string): Promise<void> {
  try {
    await link(source, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Linked by the first pass; or removed since the folder was read.
    if (code === 'EEXIST' || code === 'ENOENT') return;
    // A file system without hard links: a copy does the same (stored files never change).
    await copyFile(source, target).catch((copyErr: NodeJS.ErrnoException) => {
      if (copyErr.code !== 'ENOENT') throw copyErr;
    });
  }
}

async function countFiles(folder: string): Promise<number> {
  let count = 0;
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const entry of entries) if (entry.isFile()) count += 1;
  return count;
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes the staging folders of backups whose process is gone (killed halfway). */
async function removeAbandonedStaging(dataFolder: string): Promise<void> {
  for (const name of await readdir(dataFolder)) {
    const match = new RegExp(`^${STAGING_PREFIX.replace('.', '\\.')}(\\d+)-`).exec(name);
    if (match && !processIsAlive(Number(match[1]))) await rm(path.join(dataFolder, name), { recursive: true, force: true });
  }
}

function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
