import { existsSync, readdirSync } from 'node:fs';
import { link, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generatePassword, hashPassword } from '../auth/credentials';
import { type Db, openDatabase } from '../db';
import { DATABASE_FILE } from '../first-start';
import { emojiPathId } from '../realm-emoji/present';
import { makeEmojiImages, probeImage, squareImage } from '../uploads/images';
import { UploadStore } from '../uploads/storage';
import { Avatars, AVATAR_SIZE, MEDIUM_AVATAR_SIZE } from '../users/avatars';
import { convertExport, type ImportPlan, type StoaRow } from './convert';
import { ImportError, readExportFolder, unpackExport } from './read';

/** Left in a data folder by hand or by git: a folder holding only these counts as empty. */
const IGNORED_ENTRIES: ReadonlySet<string> = new Set(['.gitkeep']);
/** Where an import is assembled, inside the data folder, until it is complete. */
const STAGING_PREFIX = '.stoa-import-';

export interface ImportResult {
  realmName: string;
  users: number;
  channels: number;
  messages: number;
  uploads: number;
  warnings: string[];
  /** The first active owner's email and the password made for them; undefined without one. */
  owner: { email: string; password: string } | undefined;
  /** With `passwordsFile`: how many people's passwords it lists. */
  passwords: number;
}

export interface ImportOptions {
  /**
   * Give every active person a password and list them in this file (CSV: email,password,
   * readable by its owner only); without it only the first owner gets one.
   */
  passwordsFile?: string;
}

/** Hashes at once: scrypt runs on libuv's thread pool, four at a time by default. */
const HASHES_AT_ONCE = 4;

/** The entries that make a data folder not empty (none for a new or empty folder). */
export function dataFolderContents(dataFolder: string): string[] {
  if (!existsSync(dataFolder)) return [];
  return readdirSync(dataFolder).filter((name) => !IGNORED_ENTRIES.has(name) && !name.startsWith(STAGING_PREFIX));
}

/**
 * Imports a Zulip export (a tarball, or its unpacked folder) into a new data folder. The
 * database and the files are assembled in a hidden folder inside it and moved into place
 * only once whole, the database last: a failure at any step leaves the folder as it was.
 */
export async function importExport(source: string, dataFolder: string, options: ImportOptions = {}): Promise<ImportResult> {
  const present = dataFolderContents(dataFolder);
  if (present.length > 0) {
    throw new ImportError(`${dataFolder} is not empty (it holds ${present.slice(0, 3).join(', ')}${present.length > 3 ? ', ...' : ''}); import into a new folder`);
  }
  // A folder made here is removed again if the import fails.
  const madeFolder = !existsSync(dataFolder);
  await mkdir(dataFolder, { recursive: true });
  const staging = await mkdtemp(path.join(dataFolder, STAGING_PREFIX));
  const movedUploads = path.join(dataFolder, 'uploads');
  let uploadsMoved = false;
  let passwordsWritten = false;
  try {
    const unpacked = path.join(staging, 'export');
    await mkdir(unpacked);
    const contents = readExportFolder(await unpackExport(source, unpacked));
    const plan = convertExport(contents);
    const store = new UploadStore(staging);
    await placeFiles(plan, store);
    // Exports carry no passwords: the owner (or everyone, with a passwords file) gets a new one.
    const given = options.passwordsFile ? plan.people : plan.owner ? [plan.owner] : [];
    const passwords = await givePasswords(given);
    writeDatabase(path.join(staging, DATABASE_FILE), plan);
    if (options.passwordsFile) {
      const lines = given.map((person, i) => `${csvField(String(person.delivery_email))},${passwords[i]}`);
      // 'wx': never over a file that is there already; readable by its owner only.
      await writeFile(options.passwordsFile, `email,password\n${lines.join('\n')}\n`, { flag: 'wx', mode: 0o600 });
      passwordsWritten = true;
    }

    if (existsSync(store.root)) {
      await rename(store.root, movedUploads);
      uploadsMoved = true;
    }
    // A link, not a rename: it fails rather than replace a database another import put there meanwhile.
    await link(path.join(staging, DATABASE_FILE), path.join(dataFolder, DATABASE_FILE));
    const count = (table: string) => plan.tables[table]?.length ?? 0;
    return {
      realmName: String(plan.tables.realm[0].name),
      users: (plan.tables.users ?? []).filter((u) => u.is_system_bot === 0).length,
      channels: count('streams'),
      messages: count('messages'),
      uploads: count('attachments'),
      warnings: plan.warnings,
      owner: plan.owner && !options.passwordsFile ? { email: String(plan.owner.delivery_email), password: passwords[0] } : undefined,
      passwords: options.passwordsFile ? given.length : 0,
    };
  } catch (err) {
    if (uploadsMoved) await rm(movedUploads, { recursive: true, force: true });
    if (passwordsWritten) await rm(options.passwordsFile!, { force: true });
    throw err;
  } finally {
    await rm(staging, { recursive: true, force: true });
    if (madeFolder && !existsSync(path.join(dataFolder, DATABASE_FILE))) await rm(dataFolder, { recursive: true, force: true });
  }
}

/** Makes a password for each person and stores its hash on their row; answers the passwords in order. */
async function givePasswords(people: StoaRow[]): Promise<string[]> {
  const passwords = people.map(() => generatePassword());
  for (let start = 0; start < people.length; start += HASHES_AT_ONCE) {
    const batch = people.slice(start, start + HASHES_AT_ONCE);
    const hashes = await Promise.all(batch.map((_, i) => hashPassword(passwords[start + i])));
    batch.forEach((person, i) => (person.password_hash = hashes[i]));
  }
  return passwords;
}

/** An email as a CSV field: quoted when it holds a comma or a quote (addresses may). */
function csvField(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Copies uploads and emoji into the new upload store and makes each avatar's sizes. Image
 * facts (size, animation) are read here, since the export does not carry them.
 */
async function placeFiles(plan: ImportPlan, store: UploadStore): Promise<void> {
  // The organization's ID is 1 in every Stoa database.
  const avatars = new Avatars(false, () => 1);
  for (const { source, attachment } of plan.uploads) {
    await store.store(String(attachment.path_id), await readFile(source));
    const facts = String(attachment.content_type ?? '').startsWith('image/') ? await probeImage(source) : null;
    if (facts) Object.assign(attachment, { width: facts.width, height: facts.height, animated: facts.animated ? 1 : 0 });
  }
  for (const { source, row } of plan.emoji) {
    await store.store(emojiPathId(1, { file_name: String(row.file_name) }), await readFile(source));
    if (row.is_animated === 1) {
      const still = (await makeEmojiImages(source))?.still;
      if (still) await store.store(emojiPathId(1, { file_name: String(row.file_name) }, true), still);
    }
  }
  for (const { source, user } of plan.avatars) {
    const [small, medium] = await Promise.all([squareImage(source, AVATAR_SIZE), squareImage(source, MEDIUM_AVATAR_SIZE)]);
    if (!small || !medium) {
      plan.warnings.push(`user ${user.id}: the uploaded avatar is not an image Stoa reads; the default picture is used`);
      user.avatar_source = 'G';
      continue;
    }
    await store.storeAvatar(avatars.fileName(Number(user.id), false), small);
    await store.storeAvatar(avatars.fileName(Number(user.id), true), medium);
  }
}

/**
 * Creates the database with Stoa's schema and writes every row in one transaction. Foreign
 * keys are checked at the end, so tables can go in any order; a row that names nothing fails
 * the transaction with the table named, and nothing is written.
 */
function writeDatabase(file: string, plan: ImportPlan): void {
  const db = openDatabase(file);
  try {
    db.transaction(() => {
      db.pragma('defer_foreign_keys = ON');
      for (const [table, rows] of Object.entries(plan.tables)) insertRows(db, table, rows);
      const broken = db.pragma('foreign_key_check') as Array<{ table: string; rowid: number; parent: string }>;
      if (broken.length > 0) {
        const first = broken[0];
        throw new ImportError(`the export does not fit together: ${broken.length} row(s) of ${first.table} name a missing row of ${first.parent}`);
      }
    }).immediate();
    // The next start finds one file, with nothing waiting in the write-ahead log.
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

function insertRows(db: Db, table: string, rows: StoaRow[]): void {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  const insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  for (const row of rows) {
    try {
      insert.run(row);
    } catch (err) {
      throw new ImportError(`the export does not fit together: ${table}: ${(err as Error).message}`);
    }
  }
}
