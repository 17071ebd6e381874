import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../config';
import { DatabaseInUseError, openDatabase } from '../db';
import { DATABASE_FILE } from '../first-start';

export function reactivateUsage(): string {
  return [
    'Usage: stoa reactivate [--data DIR]',
    '',
    'Opens again an organization an owner deactivated (POST /realm/deactivate). Run it with',
    'the server stopped; people then sign in again, since deactivation ended every session.',
    '',
    `  --data DIR        STOA_DATA   the data folder holding stoa.db (default ${DEFAULTS.data})`,
    '  --help                        print this help and exit',
  ].join('\n');
}

/** Runs `stoa reactivate`; returns the process's exit code. */
export function runReactivateCommand(argv: string[], env: NodeJS.ProcessEnv): number {
  let values: { data?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, options: { data: { type: 'string' }, help: { type: 'boolean' } }, strict: true }));
  } catch (err) {
    console.error(`stoa: ${(err as Error).message.split('\n')[0]} (see stoa reactivate --help)`);
    return 2;
  }
  if (values.help) {
    console.log(reactivateUsage());
    return 0;
  }
  const data = values.data ?? env.STOA_DATA ?? DEFAULTS.data;
  const file = path.join(data, DATABASE_FILE);
  if (!existsSync(file)) {
    console.error(`stoa: no database at ${file}`);
    return 1;
  }
  let db;
  try {
    db = openDatabase(file);
  } catch (err) {
    if (!(err instanceof DatabaseInUseError)) throw err;
    console.error(`stoa: ${err.message}; stop the server first`);
    return 1;
  }
  try {
    const changed = db.prepare('UPDATE realm SET deactivated = 0 WHERE deactivated = 1').run().changes;
    console.log(changed > 0 ? 'The organization is active again.' : 'The organization was not deactivated.');
    return 0;
  } finally {
    db.close();
  }
}
