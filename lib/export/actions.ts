import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterCommit, sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { presentRealmExports } from './present';
import { dataFolderSources, exportFromConnection, exportFromFile } from './snapshot';
import { writeExportTarball } from './write';
import type { ExportTypeValue } from './zulip-format';

/** The folder a server's export tarballs live in: exports/ in the data folder. */
const temporaryRoots = new WeakMap<Stoa, string>();
export function exportsRoot(stoa: Stoa): string {
  if (stoa.config.data !== ':memory:') return path.resolve(stoa.config.data, 'exports');
  // A server that keeps nothing keeps its exports only while it runs.
  let root = temporaryRoots.get(stoa);
  if (!root) {
    root = mkdtempSync(path.join(tmpdir(), 'stoa-exports-'));
    temporaryRoots.set(stoa, root);
  }
  return root;
}

/** Exports in flight, so that a closing server can wait for them. */
const running = new WeakMap<Stoa, Set<Promise<void>>>();
export function exportsSettled(stoa: Stoa): Promise<unknown> {
  return Promise.allSettled([...(running.get(stoa) ?? [])]);
}

/** Tells the organization's administrators the state of every export (Zulip's realm_export event). */
function announceExports(stoa: Stoa): void {
  sendEvent(stoa, { type: 'realm_export', exports: presentRealmExports(stoa) }, stoa.users.activeAdministratorIds());
}

const nowSeconds = (stoa: Stoa) => stoa.clock.now() / 1000;

/**
 * Records an export request and starts it once the request's writes are committed. The work
 * runs beside the server: the database is read through a connection of its own inside one read
 * transaction (a consistent snapshot that the server's writes do not disturb), with a turn for
 * other requests between batches of messages, and the tarball is written asynchronously.
 */
export function requestExport(stoa: Stoa, actingUserId: number, type: ExportTypeValue): number {
  const id = write(stoa, () => {
    const id = stoa.exports.insert(actingUserId, type, nowSeconds(stoa));
    announceExports(stoa);
    return id;
  });
  afterCommit(stoa, (failure) => {
    if (failure) return;
    let jobs = running.get(stoa);
    if (!jobs) running.set(stoa, (jobs = new Set()));
    const job = runExport(stoa, id, type).finally(() => jobs.delete(job));
    jobs.add(job);
  });
  return id;
}

async function runExport(stoa: Stoa, id: number, type: ExportTypeValue): Promise<void> {
  const folder = `${id}-${randomBytes(12).toString('base64url')}`;
  const fileName = `zulip-export-${randomBytes(6).toString('hex')}.tar.gz`;
  const target = path.join(exportsRoot(stoa), folder, fileName);
  try {
    const realmId = () => stoa.realm.get()!.id;
    const sources = dataFolderSources(stoa.uploads, realmId);
    const data =
      stoa.config.data === ':memory:'
        ? await exportFromConnection(stoa.db, type, sources)
        : await exportFromFile(stoa.db.name, type, () => sources);
    const written = await writeExportTarball(data, target);
    write(stoa, () => {
      stoa.exports.succeed(id, nowSeconds(stoa), `${folder}/${fileName}`, written.size, written.sha256);
      announceExports(stoa);
    });
  } catch (err) {
    stoa.log(`error: data export ${id} failed: ${(err as Error).message}`);
    await rm(path.join(exportsRoot(stoa), folder), { recursive: true, force: true });
    try {
      write(stoa, () => {
        stoa.exports.fail(id, nowSeconds(stoa));
        announceExports(stoa);
      });
    } catch {
      // The server closed meanwhile; the next start marks the export failed.
    }
  }
}

/**
 * Deletes a finished export's tarball; its row stays, marked deleted, as on Zulip. The file
 * goes once the change is committed.
 */
export function deleteExport(stoa: Stoa, id: number, filePath: string): void {
  write(stoa, () => {
    stoa.exports.markDeleted(id, nowSeconds(stoa));
    announceExports(stoa);
  });
  afterCommit(stoa, (failure) => {
    if (!failure) void rm(path.join(exportsRoot(stoa), path.dirname(filePath)), { recursive: true, force: true });
  });
}

/** At start: exports that a stopped server left unfinished have failed. */
export function failInterruptedExports(stoa: Stoa): void {
  write(stoa, () => stoa.exports.failPending(nowSeconds(stoa)));
}
