import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, DEFAULTS } from '../config';
import { DATABASE_FILE } from '../server';
import { UploadStore } from '../uploads/storage';
import { dataFolderSources, exportFromFile, realmIdOf } from './snapshot';
import { writeExportTarball } from './write';
import { ExportType, type ExportTypeValue } from './zulip-format';

const TYPES: Record<string, ExportTypeValue> = {
  full: ExportType.FULL_WITHOUT_CONSENT,
  consent: ExportType.FULL_WITH_CONSENT,
  public: ExportType.PUBLIC,
};

export function exportUsage(): string {
  return [
    'Usage: stoa export [--data DIR] [--output FILE] [--type full|consent|public]',
    '',
    "Writes the organization as a Zulip export tarball, for Zulip's `manage.py import`.",
    'Works on a stopped server\'s data folder, or beside a running server (it reads one',
    'consistent snapshot of the database and writes nothing to it).',
    '',
    `  --data DIR        STOA_DATA   the data folder holding stoa.db (default ${DEFAULTS.data})`,
    '  --output FILE                 where to write the tarball (default zulip-export-<date>.tar.gz here)',
    '  --type TYPE                   full: everything (default); consent: private data only of users who',
    '                                allowed it; public: public channels and no private data',
    '  --help                        print this help and exit',
  ].join('\n');
}

export interface ExportCommand {
  data: string;
  output: string;
  type: ExportTypeValue;
}

/** Parses `stoa export`'s arguments (after the word export); 'help' for --help. */
export function parseExportArgs(argv: string[], env: NodeJS.ProcessEnv, now: Date): ExportCommand | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { data: { type: 'string' }, output: { type: 'string' }, type: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (err) {
    throw new ConfigError(`${(err as Error).message.split('\n')[0]} (see stoa export --help)`);
  }
  if (values.help) return 'help';
  const data = (values.data as string | undefined) ?? env.STOA_DATA ?? DEFAULTS.data;
  if (data === ':memory:') throw new ConfigError('a server with --data :memory: keeps nothing to export; export through the API instead');
  const typeName = (values.type as string | undefined) ?? 'full';
  const type = TYPES[typeName];
  if (type === undefined) throw new ConfigError(`--type must be full, consent or public, not '${typeName}'`);
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  const output = (values.output as string | undefined) ?? `zulip-export-${stamp}.tar.gz`;
  if (output === '') throw new ConfigError('--output must not be empty');
  return { data, output, type };
}

/** Runs `stoa export`; resolves with the process's exit code. */
export async function runExportCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let command: ExportCommand | 'help';
  try {
    command = parseExportArgs(argv, env, new Date());
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`stoa: ${err.message}`);
    return 2;
  }
  if (command === 'help') {
    console.log(exportUsage());
    return 0;
  }
  const file = path.join(command.data, DATABASE_FILE);
  if (!existsSync(file)) {
    console.error(`stoa: no database at ${file}`);
    return 1;
  }
  try {
    const uploads = new UploadStore(command.data);
    const data = await exportFromFile(file, command.type, (db) => dataFolderSources(uploads, () => realmIdOf(db)));
    const written = await writeExportTarball(data, command.output);
    const messages = data.messageFiles.reduce((n, f) => n + f.zerver_message.length, 0);
    console.log(`Wrote ${written.file} (${written.size} bytes, sha256 ${written.sha256}).`);
    console.log(
      `It holds ${(data.realm.zerver_userprofile as unknown[]).length} users, ${(data.realm.zerver_stream as unknown[]).length} channels, ` +
        `${messages} messages and ${data.files.uploads.records.length} uploaded files, in the folder ${written.folder}.`,
    );
    return 0;
  } catch (err) {
    console.error(`stoa: export failed: ${(err as Error).message}`);
    return 1;
  }
}
