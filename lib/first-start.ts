import { existsSync } from 'node:fs';
import path from 'node:path';
import { generatePassword, hashPassword } from './auth/credentials';
import type { Config } from './config';

export const DATABASE_FILE = 'stoa.db';

/** The first owner's password (given or generated) and its hash. */
export interface OwnerPassword {
  password: string;
  hash: string;
}

/** Makes the first owner's password and begins hashing it (scrypt, on the thread pool). */
export function makeOwnerPassword(config: Config): Promise<OwnerPassword> {
  const password = config.adminPassword ?? generatePassword();
  return hashPassword(password).then((hash) => ({ password, hash }));
}

/**
 * On what looks like a first start (no database in the data folder yet), the owner's password
 * and its hash, begun at once. The hash takes about 160 ms of a CPU; begun before the rest of
 * the server loads (server.ts), it runs beside that work instead of after it. The guess is
 * checked once the database is open: a hash begun for a database that turns out to have an
 * organization is dropped, and one not begun is made then.
 */
export function beginOwnerPasswordOnFirstStart(config: Config): Promise<OwnerPassword> | undefined {
  if (config.data !== ':memory:' && existsSync(path.join(config.data, DATABASE_FILE))) return undefined;
  // The demo's people have no password unless one is given (they use the development login).
  if (config.demo && config.adminPassword === undefined) return undefined;
  return makeOwnerPassword(config);
}
