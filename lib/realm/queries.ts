import { randomUUID } from 'node:crypto';
import type { Statements } from '../db';

export interface RealmRow {
  id: 1;
  name: string;
  string_id: string;
  description: string;
  date_created: number;
  deactivated: 0 | 1;
  uuid: string;
  owner_full_content_access: 0 | 1;
}

const freeze = (row: RealmRow | undefined) => (row ? Object.freeze(row) : row);

export function prepareRealmQueries(db: Statements) {
  const get = db.prepare<[], RealmRow>('SELECT * FROM realm WHERE id = 1');
  const insert = db.prepare<[string, string, number, string]>(
    'INSERT INTO realm (id, name, string_id, date_created, uuid) VALUES (1, ?, ?, ?, ?)',
  );
  const allSettings = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM realm_settings');
  const storeSetting = db.prepare<[string, string]>(
    'INSERT INTO realm_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const setName = db.prepare<[string]>('UPDATE realm SET name = ? WHERE id = 1');
  const setDescription = db.prepare<[string]>('UPDATE realm SET description = ? WHERE id = 1');
  const setDeactivated = db.prepare<[number]>('UPDATE realm SET deactivated = ? WHERE id = 1');
  // Every request asks whether the organization is deactivated, some several times: the row is
  // kept, frozen, until it is written here or a transaction rolls back (`forget`), as user rows are.
  // The settings are kept the same way: a registration reads all 150 of them, and permission
  // checks read some on most requests.
  let kept: RealmRow | undefined;
  let keptSettings: Map<string, string> | undefined;
  const forget = () => {
    kept = undefined;
    keptSettings = undefined;
  };
  const writing =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      fn(...args);
      forget();
    };
  return {
    forget,
    /** A stored organization setting as JSON text; undefined while it has its default. */
    setting: (key: string) => (keptSettings ??= new Map(allSettings.all().map((row) => [row.key, row.value]))).get(key),
    /** The organization, or undefined before the first start has created it. */
    get: (): RealmRow | undefined => (kept ??= freeze(get.get())),
    insert: writing((name: string, stringId: string, dateCreated: number) => void insert.run(name, stringId, dateCreated, randomUUID())),
    /** Stores a setting's value (JSON-encoded here), default or not. */
    storeSetting: writing((key: string, value: unknown) => void storeSetting.run(key, JSON.stringify(value))),
    setName: writing((name: string) => void setName.run(name)),
    setDescription: writing((description: string) => void setDescription.run(description)),
    setDeactivated: writing((deactivated: boolean) => void setDeactivated.run(deactivated ? 1 : 0)),
  };
}
