import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../config';
import { DatabaseInUseError, openDatabase, type Db } from '../db';
import { DATABASE_FILE } from '../first-start';

/**
 * Commands that change the organization where no API may: they run on a stopped server's data
 * folder (`stoa reactivate`, `stoa owner-full-content-access`).
 */

const DATA_HELP = `  --data DIR        STOA_DATA   the data folder holding stoa.db (default ${DEFAULTS.data})`;

export function reactivateUsage(): string {
  return [
    'Usage: stoa reactivate [--data DIR]',
    '',
    'Opens again an organization an owner deactivated (POST /realm/deactivate). Run it with',
    'the server stopped; people then sign in again, since deactivation ended every session.',
    '',
    DATA_HELP,
    '  --help                        print this help and exit',
  ].join('\n');
}

export function ownerFullContentAccessUsage(): string {
  return [
    'Usage: stoa owner-full-content-access --enable|--disable [--data DIR]',
    '',
    "Sets whether the organization's owners may access all of its private content: with it,",
    'an owner may ask for a full export without members\' consent (POST /export/realm with',
    'export_type full_without_consent). Clients read it as realm_owner_full_content_access.',
    'Run it with the server stopped.',
    '',
    '  --enable                      owners may access all private content',
    '  --disable                     they may not (the default)',
    DATA_HELP,
    '  --help                        print this help and exit',
  ].join('\n');
}

/**
 * Parses a command's arguments and runs `change` on the stopped server's database; answers
 * the process's exit code. `change` may refuse its flags by returning a message.
 */
function onStoppedDatabase(
  command: string,
  argv: string[],
  env: NodeJS.ProcessEnv,
  usage: () => string,
  flags: readonly string[],
  change: (db: Db, given: Record<string, boolean>) => string | number,
): number {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(flags.map((flag) => [flag, { type: 'boolean' as const }]));
    ({ values } = parseArgs({ args: argv, options: { ...options, data: { type: 'string' }, help: { type: 'boolean' } }, strict: true }));
  } catch (err) {
    console.error(`stoa: ${(err as Error).message.split('\n')[0]} (see stoa ${command} --help)`);
    return 2;
  }
  if (values.help) {
    console.log(usage());
    return 0;
  }
  const data = (values.data as string | undefined) ?? env.STOA_DATA ?? DEFAULTS.data;
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
    const given = Object.fromEntries(flags.map((flag) => [flag, values[flag] === true]));
    const outcome = change(db, given);
    if (typeof outcome === 'number') return outcome;
    console.log(outcome);
    return 0;
  } finally {
    db.close();
  }
}

/** Runs `stoa reactivate`; returns the process's exit code. */
export function runReactivateCommand(argv: string[], env: NodeJS.ProcessEnv): number {
  return onStoppedDatabase('reactivate', argv, env, reactivateUsage, [], (db) => {
    const changed = db.prepare('UPDATE realm SET deactivated = 0 WHERE deactivated = 1').run().changes;
    return changed > 0 ? 'The organization is active again.' : 'The organization was not deactivated.';
  });
}

/** Runs `stoa owner-full-content-access`; returns the process's exit code. */
export function runOwnerFullContentAccessCommand(argv: string[], env: NodeJS.ProcessEnv): number {
  return onStoppedDatabase('owner-full-content-access', argv, env, ownerFullContentAccessUsage, ['enable', 'disable'], (db, given) => {
    if (given.enable === given.disable) {
      console.error('stoa: give one of --enable and --disable (see stoa owner-full-content-access --help)');
      return 2;
    }
    db.prepare('UPDATE realm SET owner_full_content_access = ?').run(given.enable ? 1 : 0);
    return `owner_full_content_access is now ${given.enable ? 'on' : 'off'}.`;
  });
}
