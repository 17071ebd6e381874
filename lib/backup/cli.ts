import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, DEFAULTS } from '../config';
import { restoreBackup } from './restore';
import { backupFileName, takeBackup } from './take';

export function backupUsage(): string {
  return [
    'Usage: stoa backup [--data DIR] [--output FILE]',
    '',
    'Writes a backup of a data folder to one file (a gzipped tarball): the database, uploaded',
    'files, avatars and custom emoji, and the owner\'s zuliprc. Run it beside a running server:',
    'the database is copied as of one moment while the server goes on serving. The file is',
    'written under FILE.partial and renamed when complete. Restore it with stoa restore.',
    '',
    `  --data DIR        STOA_DATA   the data folder holding stoa.db (default ${DEFAULTS.data})`,
    '  --output FILE                 where to write the backup (default stoa-backup-<date>.tar.gz here)',
    '  --help                        print this help and exit',
  ].join('\n');
}

export function restoreUsage(): string {
  return [
    'Usage: stoa restore BACKUP --data DIR',
    '',
    'Fills a new or empty data folder from a backup written by stoa backup, then start Stoa',
    'with the same --data. A folder that holds data is refused.',
    '',
    '  --data DIR        STOA_DATA   the data folder to fill; it must be new or empty',
    '  --help                        print this help and exit',
  ].join('\n');
}

function parse(
  command: string,
  argv: string[],
  options: Record<string, { type: 'string' | 'boolean' }>,
  allowPositionals: boolean,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } }, allowPositionals, strict: true });
  } catch (err) {
    throw new ConfigError(`${(err as Error).message.split('\n')[0]} (see stoa ${command} --help)`);
  }
}

/** Runs `stoa backup`; resolves with the process's exit code. */
export async function runBackupCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let data: string;
  let output: string;
  try {
    const { values } = parse('backup', argv, { data: { type: 'string' }, output: { type: 'string' } }, false);
    if (values.help) {
      console.log(backupUsage());
      return 0;
    }
    data = (values.data as string | undefined) ?? env.STOA_DATA ?? DEFAULTS.data;
    if (data === ':memory:' || data === '') throw new ConfigError('--data must name a data folder; a server with --data :memory: keeps nothing to back up');
    output = (values.output as string | undefined) ?? backupFileName(new Date());
    if (output === '') throw new ConfigError('--output must not be empty');
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`stoa: ${err.message}`);
    return 2;
  }
  try {
    const written = await takeBackup(data, output);
    const { messages, files } = written.manifest;
    console.log(`Wrote ${written.file} (${written.size} bytes): ${messages} messages and ${files} files.`);
    return 0;
  } catch (err) {
    console.error(`stoa: backup failed, ${output} was not written: ${(err as Error).message}`);
    return 1;
  }
}

/** Runs `stoa restore`; resolves with the process's exit code. */
export async function runRestoreCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let data: string;
  let file: string;
  try {
    const { values, positionals } = parse('restore', argv, { data: { type: 'string' } }, true);
    if (values.help) {
      console.log(restoreUsage());
      return 0;
    }
    if (positionals.length !== 1) throw new ConfigError('name one backup to restore: stoa restore BACKUP --data DIR (see stoa restore --help)');
    file = positionals[0];
    data = (values.data as string | undefined) ?? env.STOA_DATA ?? '';
    if (data === '' || data === ':memory:') throw new ConfigError('--data must name the folder to restore into');
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`stoa: ${err.message}`);
    return 2;
  }
  try {
    const manifest = await restoreBackup(file, data);
    console.log(`Restored ${manifest.messages} messages and ${manifest.files} files from a backup of ${manifest.created_at} into ${path.resolve(data)}.`);
    console.log(`Start it with: stoa --data ${data}`);
    return 0;
  } catch (err) {
    console.error(`stoa: restore failed, nothing was written: ${(err as Error).message}`);
    return 1;
  }
}
