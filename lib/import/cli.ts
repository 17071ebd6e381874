import { parseArgs } from 'node:util';
import { ConfigError, DEFAULTS } from '../config';
import { ImportError } from './read';
import { importExport } from './write';

export function importUsage(): string {
  return [
    'Usage: stoa import EXPORT [--data DIR] [--passwords FILE]',
    '',
    'Reads a Zulip export into a new data folder: a tarball written by `stoa export`, by',
    "Zulip's `manage.py export` or by its organization settings, or that tarball unpacked.",
    'Then start Stoa with the same --data. Exports carry no passwords: the first owner is',
    'given one, printed once, or with --passwords everyone is, listed in FILE.',
    '',
    `  --data DIR        STOA_DATA   the data folder to fill; it must be new or empty (default ${DEFAULTS.data})`,
    '                                (--data-dir is the same)',
    '  --passwords FILE              give every active person a new password and write them to FILE',
    '                                (CSV: email,password; readable by you only; FILE must not exist)',
    '  --help                        print this help and exit',
  ].join('\n');
}

export interface ImportCommand {
  source: string;
  data: string;
  passwordsFile: string | undefined;
}

/** Parses `stoa import`'s arguments (after the word import); 'help' for --help. */
export function parseImportArgs(argv: string[], env: NodeJS.ProcessEnv): ImportCommand | 'help' {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { data: { type: 'string' }, 'data-dir': { type: 'string' }, passwords: { type: 'string' }, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    throw new ConfigError(`${(err as Error).message.split('\n')[0]} (see stoa import --help)`);
  }
  if (values.help) return 'help';
  if (positionals.length !== 1) throw new ConfigError('name one export to import: stoa import EXPORT [--data DIR] (see stoa import --help)');
  const data = (values.data as string | undefined) ?? (values['data-dir'] as string | undefined) ?? env.STOA_DATA ?? DEFAULTS.data;
  if (data === ':memory:' || data === '') throw new ConfigError('--data must name a folder to import into');
  const passwordsFile = values.passwords as string | undefined;
  if (passwordsFile === '') throw new ConfigError('--passwords must name a file');
  return { source: positionals[0], data, passwordsFile };
}

/** Runs `stoa import`; resolves with the process's exit code. */
export async function runImportCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let command: ImportCommand | 'help';
  try {
    command = parseImportArgs(argv, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`stoa: ${err.message}`);
    return 2;
  }
  if (command === 'help') {
    console.log(importUsage());
    return 0;
  }
  try {
    const result = await importExport(command.source, command.data, { passwordsFile: command.passwordsFile });
    console.log(
      `Imported "${result.realmName}" into ${command.data}: ${result.users} users, ${result.channels} channels, ` +
        `${result.messages} messages and ${result.uploads} uploaded files.`,
    );
    for (const warning of result.warnings) console.log(`Note: ${warning}`);
    if (command.passwordsFile) {
      console.log(`Everyone's new password is in ${command.passwordsFile} (${result.passwords} people); hand them out, then delete it.`);
    } else if (result.owner) {
      console.log(`The owner ${result.owner.email} logs in with the password ${result.owner.password} (shown this once).`);
    }
    console.log(`Start it with: stoa --data ${command.data}`);
    return 0;
  } catch (err) {
    // An ImportError says what in the export is wrong; anything else (a full disk) is said as it is.
    const message = err instanceof ImportError ? err.message : `${(err as Error).message}`;
    console.error(`stoa: import failed, nothing was written: ${message}`);
    return 1;
  }
}
