import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXPORT_FILES, FILE_FOLDERS, type MigrationStatus, STOA_EXTRAS_FILE, ZULIP_TARGET_VERSION, type ZulipExport } from './zulip-format';

export interface WrittenExport {
  /** The tarball's path. */
  file: string;
  size: number;
  sha256: string;
  /** The name of the one folder inside it, which `manage.py import` is pointed at. */
  folder: string;
}

/**
 * Writes an export as Zulip's tarball: one folder, zulip-export-<random>, holding the JSON
 * files and the copied files, gzipped. The folder is laid out beside the tarball first (files
 * hard-linked where the file system allows, else copied) and removed afterwards; the tarball
 * appears under its name only once it is whole.
 */
export async function writeExportTarball(data: ZulipExport, file: string): Promise<WrittenExport> {
  const outDir = path.dirname(path.resolve(file));
  await mkdir(outDir, { recursive: true });
  const staging = await mkdtemp(path.join(outDir, '.export-'));
  const folder = `zulip-export-${randomBytes(6).toString('hex')}`;
  const root = path.join(staging, folder);
  const partial = `${file}.partial`;
  try {
    await mkdir(root);
    const json = (name: string, value: unknown) => writeFile(path.join(root, name), JSON.stringify(value, null, 2));
    const status: MigrationStatus = { zulip_version: ZULIP_TARGET_VERSION, migrations_by_app: {} };
    await json(EXPORT_FILES.migrationStatus, status);
    await json(EXPORT_FILES.realm, data.realm);
    for (const [i, messages] of data.messageFiles.entries()) await json(EXPORT_FILES.messages(i + 1), messages);
    await json(EXPORT_FILES.attachment, data.attachment);
    await json(EXPORT_FILES.analytics, { analytics_realmcount: [], analytics_usercount: [], analytics_streamcount: [] });
    for (const name of FILE_FOLDERS) {
      const { records, sources } = data.files[name];
      await mkdir(path.join(root, name));
      for (const record of records) {
        const target = path.join(root, name, record.path);
        await mkdir(path.dirname(target), { recursive: true });
        await placeFile(sources.get(record.path)!, target);
      }
      await json(path.join(name, 'records.json'), records);
    }
    await json(STOA_EXTRAS_FILE, data.stoa);
    await json(EXPORT_FILES.stats, exportStats(data));

    // Loaded here, not at start-up: tar is tens of milliseconds and megabytes few servers need.
    const tar = require('tar') as typeof import('tar');
    await tar.c({ gzip: true, file: partial, cwd: staging, portable: true }, [folder]);
    await rename(partial, file);
    const { size } = await stat(file);
    return { file, size, sha256: await sha256Of(file), folder };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/** Counts per table and file, as Zulip's stats.json gives them. */
export function exportStats(data: ZulipExport): Record<string, unknown> {
  const counts = (tables: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(tables).filter(([, rows]) => Array.isArray(rows)).map(([table, rows]) => [table, (rows as unknown[]).length]));
  const stats: Record<string, unknown> = { realm: counts(data.realm), attachment: counts(data.attachment) };
  data.messageFiles.forEach((messages, i) => (stats[EXPORT_FILES.messages(i + 1).replace(/\.json$/, '')] = counts(messages)));
  for (const name of FILE_FOLDERS) stats[`${name}_records`] = data.files[name].records.length;
  return stats;
}

async function placeFile(source: string, target: string): Promise<void> {
  try {
    await link(source, target);
  } catch {
    // Another file system, or links not allowed: a copy does the same.
    await copyFile(source, target);
  }
}

function sha256Of(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}
