import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { EXPORT_FILES, FILE_FOLDERS, type FileFolder, type FileRecord, STOA_EXTRAS_FILE } from '../export/zulip-format';

/** Something about the export that makes it unusable; the message says what and where. */
export class ImportError extends Error {}

export type Row = Record<string, unknown>;

/** The JSON files of an export folder, read and checked for shape (not yet for meaning). */
export interface ExportContents {
  /** The folder holding realm.json. */
  root: string;
  realm: Row;
  messages: Row[];
  userMessages: Row[];
  attachments: Row[];
  records: Record<FileFolder, FileRecord[]>;
  /** Zulip's version, from migration_status.json when there is one. */
  zulipVersion: string | undefined;
  /** stoa.json, in an export Stoa wrote; checked when converted. */
  stoa: Row | undefined;
}

/**
 * Unpacks a tarball into `scratch` (or takes a folder as it is) and answers the export's
 * folder: the one holding realm.json, which is either the folder itself or the one folder
 * in it, as Zulip's tarballs hold zulip-export-<random>/.
 */
export async function unpackExport(source: string, scratch: string): Promise<string> {
  let stats;
  try {
    stats = statSync(source);
  } catch {
    throw new ImportError(`${source} does not exist`);
  }
  if (stats.isDirectory()) return exportRoot(source, source);
  // Loaded here, not at start-up, as the export does.
  const tar = require('tar') as typeof import('tar');
  try {
    await tar.x({
      file: source,
      cwd: scratch,
      strict: true,
      // Plain files and folders only: a link in a crafted tarball could point the import at
      // any file of this machine.
      filter: (_path, entry) => 'type' in entry && (entry.type === 'File' || entry.type === 'Directory'),
    });
  } catch (err) {
    throw new ImportError(`${source} is not a readable tarball (${(err as Error).message})`);
  }
  return exportRoot(scratch, source);
}

function exportRoot(folder: string, source: string): string {
  if (existsSync(path.join(folder, EXPORT_FILES.realm))) return folder;
  const inside = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  if (inside.length === 1 && existsSync(path.join(folder, inside[0].name, EXPORT_FILES.realm))) return path.join(folder, inside[0].name);
  throw new ImportError(`${source} holds no ${EXPORT_FILES.realm}: it is not a Zulip export`);
}

function readJson(root: string, name: string): unknown {
  let text;
  try {
    text = readFileSync(path.join(root, name), 'utf8');
  } catch {
    throw new ImportError(`${name} cannot be read`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ImportError(`${name} is not valid JSON (${(err as Error).message})`);
  }
}

function isObject(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A table of a JSON file: a list of objects; a missing table is empty. */
export function tableOf(file: Row, table: string, fileName: string): Row[] {
  const rows = file[table];
  if (rows === undefined) return [];
  if (!Array.isArray(rows) || !rows.every(isObject)) throw new ImportError(`${fileName}: ${table} must be a list of objects`);
  return rows;
}

/** Reads realm.json, every messages-NNNNNN.json, attachment.json and the records of each file folder. */
export function readExportFolder(root: string): ExportContents {
  const realm = readJson(root, EXPORT_FILES.realm);
  if (!isObject(realm)) throw new ImportError(`${EXPORT_FILES.realm} must hold an object of tables`);

  const messages: Row[] = [];
  const userMessages: Row[] = [];
  for (let n = 1; existsSync(path.join(root, EXPORT_FILES.messages(n))); n++) {
    const name = EXPORT_FILES.messages(n);
    const file = readJson(root, name);
    if (!isObject(file)) throw new ImportError(`${name} must hold an object of tables`);
    messages.push(...tableOf(file, 'zerver_message', name));
    userMessages.push(...tableOf(file, 'zerver_usermessage', name));
  }

  let attachments: Row[] = [];
  if (existsSync(path.join(root, EXPORT_FILES.attachment))) {
    const file = readJson(root, EXPORT_FILES.attachment);
    if (!isObject(file)) throw new ImportError(`${EXPORT_FILES.attachment} must hold an object of tables`);
    attachments = tableOf(file, 'zerver_attachment', EXPORT_FILES.attachment);
  }

  const records = {} as Record<FileFolder, FileRecord[]>;
  for (const folder of FILE_FOLDERS) {
    const name = `${folder}/records.json`;
    if (!existsSync(path.join(root, name))) {
      records[folder] = [];
      continue;
    }
    const list = readJson(root, name);
    if (!Array.isArray(list) || !list.every((r) => isObject(r) && typeof r.path === 'string')) {
      throw new ImportError(`${name} must be a list of records, each with a path`);
    }
    records[folder] = list as FileRecord[];
  }

  let zulipVersion: string | undefined;
  if (existsSync(path.join(root, EXPORT_FILES.migrationStatus))) {
    const status = readJson(root, EXPORT_FILES.migrationStatus);
    if (isObject(status) && typeof status.zulip_version === 'string') zulipVersion = status.zulip_version;
  }
  let stoa: Row | undefined;
  if (existsSync(path.join(root, STOA_EXTRAS_FILE))) {
    const extras = readJson(root, STOA_EXTRAS_FILE);
    if (!isObject(extras)) throw new ImportError(`${STOA_EXTRAS_FILE} must hold an object`);
    stoa = extras;
  }
  return { root, realm, messages, userMessages, attachments, records, zulipVersion, stoa };
}

/**
 * The file a record names, inside its folder of the export; undefined when the path would
 * leave the folder or the file is not there.
 */
export function recordFile(root: string, folder: FileFolder, record: FileRecord): string | undefined {
  const base = path.resolve(root, folder);
  const file = path.resolve(base, record.path);
  if (!file.startsWith(base + path.sep)) return undefined;
  try {
    return statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}
