import type { Statements } from '../db';

export interface RealmDomainRow {
  id: number;
  domain: string;
  allow_subdomains: number;
}

export function prepareRealmDomainQueries(db: Statements) {
  const all = db.prepare<[], RealmDomainRow>('SELECT * FROM realm_domains ORDER BY domain');
  const get = db.prepare<[string], RealmDomainRow>('SELECT * FROM realm_domains WHERE domain = ?');
  const upsert = db.prepare<[string, number]>(
    'INSERT INTO realm_domains (domain, allow_subdomains) VALUES (?, ?) ON CONFLICT (domain) DO UPDATE SET allow_subdomains = excluded.allow_subdomains',
  );
  const remove = db.prepare<[string]>('DELETE FROM realm_domains WHERE domain = ?');
  return {
    all: () => all.all(),
    get: (domain: string) => get.get(domain),
    /** Adds the domain, or changes whether it covers its subdomains. */
    set: (domain: string, allowSubdomains: boolean) => void upsert.run(domain, allowSubdomains ? 1 : 0),
    remove: (domain: string) => void remove.run(domain),
  };
}

/** An allowed domain as the API shows it. */
export function presentRealmDomain(row: RealmDomainRow): Record<string, unknown> {
  return { domain: row.domain, allow_subdomains: row.allow_subdomains === 1 };
}
