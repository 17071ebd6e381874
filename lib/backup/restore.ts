import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { link, mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { SCHEMA_VERSION } from '../db';
import { DATABASE_FILE } from '../first-start';
import { dataFolderContents } from '../import/write';
import { BACKUP_FORMAT, type BackupManifest, MANIFEST_FILE } from './take';

/** Where a restore is unpacked, inside the data folder, until it is checked and moved into place. */
const STAGING_PREFIX = '.stoa-restore-';

/** A backup that cannot be restored, or a folder it cannot be restored into: the command reports it. */
export class RestoreError extends Error {}

/**
 * Fills a new (or empty) data folder from a backup written by `takeBackup`. The tarball is
 * unpacked into a hidden folder inside the data folder, its database checked, and its parts
 * moved into place, the database last: a restore that fails or is killed leaves no database,
 * so no server starts on half a restore. A folder that holds data is refused.
 */
export async function restoreBackup(file: string, dataFolder: string): Promise<BackupManifest> {
  try {
    if (!(await stat(file)).isFile()) throw new RestoreError(`${file} is not a file`);
  } catch (err) {
    if (err instanceof RestoreError) throw err;
    throw new RestoreError(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  // What a killed restore left; only a restore writes these folders.
  if (existsSync(dataFolder)) {
    for (const name of await readdir(dataFolder)) if (name.startsWith(STAGING_PREFIX)) await rm(path.join(dataFolder, name), { recursive: true, force: true });
  }
  const present = dataFolderContents(dataFolder);
  if (present.length > 0) {
    throw new RestoreError(
      `${dataFolder} is not empty (it holds ${present.slice(0, 3).join(', ')}${present.length > 3 ? ', ...' : ''}); restore into a new folder`,
    );
  }
  const madeFolder = !existsSync(dataFolder);
  await mkdir(dataFolder, { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(path.join(dataFolder, STAGING_PREFIX));
  try {
    // Loaded here, not at start-up, as the export does.
    const tar = require('tar') as typeof import('tar');
    try {
      await tar.x({
        file,
        cwd: staging,
        strict: true,
        // Plain files and folders only: a link in a crafted tarball could point anywhere.
        filter: (_path, entry) => 'type' in entry && (entry.type === 'File' || entry.type === 'Directory'),
      });
    } catch (err) {
      throw new RestoreError(`${file} is not a readable tarball (${(err as Error).message})`);
    }
    const manifest = readManifest(staging, file);
    checkDatabase(path.join(staging, DATABASE_FILE), file);
    for (const name of await readdir(staging)) {
      if (name === DATABASE_FILE || name === MANIFEST_FILE) continue;
      await rename(path.join(staging, name), path.join(dataFolder, name));
    }
    // A link, not a rename: it fails rather than replace a database a server made there meanwhile.
    await link(path.join(staging, DATABASE_FILE), path.join(dataFolder, DATABASE_FILE));
    return manifest;
  } catch (err) {
    // Leave the folder as it was: empty (or gone, if this restore made it).
    if (!existsSync(path.join(dataFolder, DATABASE_FILE))) {
      for (const name of await readdir(dataFolder)) if (!name.startsWith(STAGING_PREFIX) && name !== '.gitkeep') await rm(path.join(dataFolder, name), { recursive: true, force: true });
    }
    throw err;
  } finally {
    await rm(staging, { recursive: true, force: true });
    if (madeFolder && !existsSync(path.join(dataFolder, DATABASE_FILE))) await rm(dataFolder, { recursive: true, force: true });
  }
}

function readManifest(folder: string, file: string): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(readFileSync(path.join(folder, MANIFEST_FILE), 'utf8')) as Partial<BackupManifest>;
  } catch {
    throw new RestoreError(`${file} is not a Stoa backup (it has no readable ${MANIFEST_FILE}); a Zulip export is read by stoa import`);
  }
  if (manifest.format !== BACKUP_FORMAT) throw new RestoreError(`${file} is not a Stoa backup`);
  if (typeof manifest.schema_version !== 'number' || manifest.schema_version > SCHEMA_VERSION) {
    throw new RestoreError(`${file} is from a newer Stoa (schema ${manifest.schema_version}); restore it with that version`);
  }
  return manifest as BackupManifest;
}

/** The backup's database must be whole: SQLite's own check of every page and index. */
function checkDatabase(databaseFile: string, file: string): void {
  if (!existsSync(databaseFile)) throw new RestoreError(`${file} holds no ${DATABASE_FILE}`);
  let result: string;
  try {
    const db = new Database(databaseFile, { fileMustExist: true });
    try {
      result = db.pragma('quick_check', { simple: true }) as string;
    } finally {
      db.close();
    }
  } catch (err) {
    throw new RestoreError(`the database in ${file} cannot be read (${(err as Error).message})`);
  }
  if (result !== 'ok') throw new RestoreError(`the database in ${file} is damaged (${result})`);
}
