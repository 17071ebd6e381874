import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Stoa } from '../stoa';
import { backupFileName, takeBackup } from './take';

/** The names scheduled backups are written under (backupFileName's); the times sort as the names do. */
const SCHEDULED_NAME = /^stoa-backup-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})\.tar\.gz$/;
const HOUR_MS = 60 * 60 * 1000;

/** The scheduled backups in a folder, oldest first. */
export function scheduledBackups(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => SCHEDULED_NAME.test(name))
    .sort();
}

function takenAt(name: string): number {
  const [, year, month, day, hour, minute, second] = SCHEDULED_NAME.exec(name)!.map(Number);
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/**
 * With --backup-dir, the server backs itself up: at start when the newest backup there is
 * older than --backup-every (or there is none), then every --backup-every hours, keeping the
 * newest --backup-keep. A backup is written as `stoa backup` writes one, beside the serving
 * connection, so requests go on being answered. Answers a function that stops the schedule
 * and resolves once a backup under way has finished.
 */
export function startScheduledBackups(stoa: Stoa): () => Promise<void> {
  const { backupDir, backupEveryHours, backupKeep, data } = stoa.config;
  if (backupDir === undefined) return () => Promise.resolve();
  const everyMs = backupEveryHours * HOUR_MS;
  let existing: string[];
  try {
    mkdirSync(backupDir, { recursive: true, mode: 0o700 });
    // What a backup killed with its server left; scheduled backups are only written by this server.
    for (const name of readdirSync(backupDir)) {
      if (name.endsWith('.partial') && SCHEDULED_NAME.test(name.slice(0, -'.partial'.length))) rmSync(path.join(backupDir, name), { force: true });
    }
    existing = scheduledBackups(backupDir);
  } catch (err) {
    stoa.log(`error: no scheduled backups: ${backupDir} cannot be used (${(err as Error).message})`);
    return () => Promise.resolve();
  }
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let cancel = () => {};

  const run = async () => {
    const file = path.join(backupDir, backupFileName(new Date(stoa.clock.now())));
    try {
      const written = await takeBackup(data, file, () => new Date(stoa.clock.now()));
      stoa.log(`Backup written to ${written.file} (${written.size} bytes, ${written.manifest.messages} messages, ${written.manifest.files} files).`);
      const backups = scheduledBackups(backupDir);
      for (const old of backups.slice(0, Math.max(0, backups.length - backupKeep))) rmSync(path.join(backupDir, old), { force: true });
    } catch (err) {
      stoa.log(`error: scheduled backup to ${file} failed: ${(err as Error).message}`);
    }
  };
  const arm = (atMs: number) => {
    cancel = stoa.clock.at(atMs, () => {
      if (stopped) return;
      running = run().then(() => {
        if (!stopped) arm(stoa.clock.now() + everyMs);
      });
    });
  };
  const newest = existing.at(-1);
  arm(newest === undefined ? stoa.clock.now() : takenAt(newest) + everyMs);
  return () => {
    stopped = true;
    cancel();
    return running;
  };
}
