import type { Clock } from './clock';
import type { Config } from './config';
import type { Db } from './db';
import { prepareGroupQueries } from './groups/queries';
import { prepareRealmQueries } from './realm/queries';
import { prepareUserQueries } from './users/queries';

/** The running server's state: the database, its prepared queries, the settings and the clock. */
export interface Stoa {
  db: Db;
  config: Config;
  clock: Clock;
  /** The base URL clients use, e.g. http://127.0.0.1:9991; set once the server listens. */
  site: string;
  realm: ReturnType<typeof prepareRealmQueries>;
  users: ReturnType<typeof prepareUserQueries>;
  groups: ReturnType<typeof prepareGroupQueries>;
}

export function createStoa(db: Db, config: Config, clock: Clock): Stoa {
  return {
    db,
    config,
    clock,
    site: '',
    realm: prepareRealmQueries(db),
    users: prepareUserQueries(db),
    groups: prepareGroupQueries(db),
  };
}

/** Runs fn in one IMMEDIATE transaction: all of its writes land, or none do. */
export function write<T>(stoa: Stoa, fn: () => T): T {
  return stoa.db.transaction(fn).immediate();
}
