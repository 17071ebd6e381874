import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where a file waits between arriving and being stored: nothing there outlives a start. */
const INCOMING = '.incoming';
/** Thumbnails are made from the stored files on demand, so they can always be thrown away. */
const THUMBNAILS = '.thumbnails';
/** Avatars, served to anyone: not uploads with rows, so the sweep leaves them alone. */
const AVATARS = '.avatars';

/**
 * Uploaded files on disk, under the data folder (or a private temporary folder for a server
 * that keeps nothing). A file is stored in three steps, each durable before the next: written
 * and synced under .incoming, renamed to its final place (and the folder synced), then its row
 * committed. A crash can therefore leave a file without a row but never a row without its
 * file; `sweep` removes such leftovers at the next start.
 */
export class UploadStore {
  readonly root: string;
  private readonly temporary: boolean;

  constructor(dataFolder: string) {
    this.temporary = dataFolder === ':memory:';
    this.root = this.temporary ? mkdtempSync(path.join(tmpdir(), 'stoa-uploads-')) : path.resolve(dataFolder, 'uploads');
  }

  /** A new, unguessable path ID for a file of this name. */
  static newPathId(realmId: number, fileName: string): string {
    return `${realmId}/${randomBytes(1).toString('hex')}/${randomBytes(18).toString('base64url')}/${cleanFileName(fileName)}`;
  }

  /** A fresh place for an arriving file, which the caller writes and syncs before `place`. */
  async incomingPath(): Promise<string> {
    const folder = path.join(this.root, INCOMING);
    await mkdir(folder, { recursive: true });
    return path.join(folder, randomBytes(12).toString('hex'));
  }

  /** Moves an arrived (and synced) file to its stored place, durably. */
  async place(incoming: string, pathId: string): Promise<void> {
    const target = this.filePath(pathId);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(incoming, target);
    await syncFolder(path.dirname(target));
  }

  /** Stores bytes made here (not received) at a path ID, durably: written and synced, then placed. */
  async store(pathId: string, bytes: Buffer): Promise<void> {
    const incoming = await this.incomingPath();
    try {
      const handle = await open(incoming, 'wx');
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.place(incoming, pathId);
    } finally {
      await rm(incoming, { force: true });
    }
  }

  filePath(pathId: string): string {
    return path.join(this.root, pathId);
  }

  /** Where an avatar file of lib/users/avatars.ts's naming is kept. */
  avatarPath(fileName: string): string {
    return path.join(this.root, AVATARS, fileName);
  }

  /** Stores (or replaces) an avatar file, durably, as `store` does for uploads. */
  storeAvatar(fileName: string, bytes: Buffer): Promise<void> {
    return this.store(`${AVATARS}/${fileName}`, bytes);
  }

  /**
   * Stores an avatar made here at once, for callers that must have it in place before they
   * return (a generated avatar, written in the same turn as the commit that names it).
   */
  storeAvatarNow(fileName: string, bytes: Buffer): void {
    const target = this.avatarPath(fileName);
    const incoming = path.join(this.root, INCOMING, randomBytes(12).toString('hex'));
    mkdirSync(path.dirname(incoming), { recursive: true });
    mkdirSync(path.dirname(target), { recursive: true });
    const fd = openSync(incoming, 'wx');
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(incoming, target);
  }

  thumbnailPath(pathId: string, format: string): string {
    return path.join(this.root, THUMBNAILS, pathId, format);
  }

  /** Removes a stored file and its thumbnails; a file already gone is no error. */
  async remove(pathId: string): Promise<void> {
    await rm(this.filePath(pathId), { force: true });
    await rm(path.join(this.root, THUMBNAILS, pathId), { recursive: true, force: true });
  }

  /**
   * Removes what a crash may have left: arrivals that were never stored, and stored files
   * whose row was never committed. Only files older than `before` are touched, so uploads
   * under way while this runs are safe.
   */
  async sweep(knownPathIds: ReadonlySet<string>, before: number): Promise<number> {
    let removed = 0;
    const walk = async (folder: string, relative: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = path.join(folder, entry.name);
        const id = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (relative === '' && (entry.name === THUMBNAILS || entry.name === AVATARS)) continue;
        if (entry.isDirectory()) {
          await walk(full, id);
          continue;
        }
        const incoming = relative === INCOMING;
        if (!incoming && knownPathIds.has(id)) continue;
        if ((await stat(full)).mtimeMs >= before) continue;
        await rm(full, { force: true });
        removed += 1;
      }
    };
    await walk(this.root, '');
    return removed;
  }

  /** A server that keeps nothing takes its uploads with it. */
  close(): void {
    if (this.temporary) rmSync(this.root, { recursive: true, force: true });
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A file name safe in a URL and on any disk: letters, digits, "_", ".", "-", with runs of
 * spaces and dashes made one dash, as Zulip stores names.
 */
export function cleanFileName(name: string): string {
  const cleaned = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_\s.-]/gu, '')
    .trim()
    .replace(/[-\s]+/g, '-');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'uploaded-file' : cleaned;
}
