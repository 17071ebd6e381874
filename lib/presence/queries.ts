import type { Statements } from '../db';
import { KeptWhileUnwritten, type TableWrites } from '../table-writes';

export interface PresenceRow {
  user_id: number;
  last_active_ms: number | null;
  last_connected_ms: number;
  last_update_id: number;
}

/** A presence row with what presenting it needs from its user. */
export interface PresenceView extends PresenceRow {
  email: string;
  date_joined_ms: number;
}

export function preparePresenceQueries(db: Statements, writes: TableWrites) {
  const byUser = db.prepare<[number], PresenceRow>('SELECT * FROM user_presence WHERE user_id = ?');
  const viewOf = db.prepare<[number], PresenceView>(
    `SELECT p.*, u.email, u.date_joined_ms FROM user_presence p JOIN users u ON u.id = p.user_id
     WHERE p.user_id = ?`,
  );
  // Bots report no presence, and deactivated users have none to show. Every /register reads
  // everyone's row and every presence report the rows changed since its last: a thousand rows
  // read from SQLite and joined with their users took 1.5-2.5 ms each time. The table is kept
  // in memory in user order, patched by this connection's own writes and read again after
  // anyone else's (or a rollback); the people's part is kept until a user row is written.
  const allInUserOrder = db
    .prepare<[], [number, number | null, number, number]>('SELECT user_id, last_active_ms, last_connected_ms, last_update_id FROM user_presence ORDER BY user_id')
    .raw(true);
  const humans = db.prepare<[], { id: number; email: string; date_joined_ms: number }>(
    'SELECT id, email, date_joined_ms FROM users WHERE is_active = 1 AND is_bot = 0',
  );
  const keptHumans = new KeptWhileUnwritten<ReadonlyMap<number, { email: string; date_joined_ms: number }>>(writes, ['users']);
  const PRESENCE_TABLES = ['user_presence'];
  let kept: { stamp: number; rows: Map<number, PresenceRow> } | null = null;
  const keptRows = (): Map<number, PresenceRow> => {
    const stamp = writes.stamp(PRESENCE_TABLES);
    if (kept?.stamp !== stamp) {
      const rows = new Map<number, PresenceRow>();
      for (const [user_id, last_active_ms, last_connected_ms, last_update_id] of allInUserOrder.all()) rows.set(user_id, { user_id, last_active_ms, last_connected_ms, last_update_id });
      kept = { stamp, rows };
    }
    return kept.rows;
  };
  const keptPeople = () => keptHumans.get(() => new Map(humans.all().map(({ id, email, date_joined_ms }) => [id, { email, date_joined_ms }])));
  /** Rows of active human users changed after `afterUpdateId` and connected since `sinceMs`, in user order, with their people. */
  function* matching(afterUpdateId: number, sinceMs: number): Generator<[PresenceRow, { email: string; date_joined_ms: number }]> {
    const people = keptPeople();
    for (const row of keptRows().values()) {
      if (row.last_update_id <= afterUpdateId || row.last_connected_ms < sinceMs) continue;
      const person = people.get(row.user_id);
      if (person) yield [row, person];
    }
  }
  const changedSince = (afterUpdateId: number, sinceMs: number): PresenceView[] =>
    Array.from(matching(afterUpdateId, sinceMs), ([row, person]) => ({ ...row, ...person }));
  // Each row's entry in the modern format, made once per row written (a person's join date,
  // which stands in for a row never active, does not change).
  const modernEntries = new WeakMap<PresenceRow, string>();
  const modernJson = (afterUpdateId: number, sinceMs: number, entryOf: (view: PresenceView) => unknown): { text: string; newestUpdateId: number | null } => {
    const entries: string[] = [];
    let newestUpdateId: number | null = null;
    for (const [row, person] of matching(afterUpdateId, sinceMs)) {
      let entry = modernEntries.get(row);
      if (entry === undefined) {
        entry = `"${row.user_id}":${JSON.stringify(entryOf({ ...row, ...person }))}`;
        modernEntries.set(row, entry);
      }
      entries.push(entry);
      if (newestUpdateId === null || row.last_update_id > newestUpdateId) newestUpdateId = row.last_update_id;
    }
    return { text: `{${entries.join(',')}}`, newestUpdateId };
  };
  const newestUpdateId = db.prepare<[], { id: number | null }>('SELECT max(last_update_id) AS id FROM user_presence');
  const upsert = db.prepare<PresenceRow>(
    `INSERT INTO user_presence (user_id, last_active_ms, last_connected_ms, last_update_id)
     VALUES (@user_id, @last_active_ms, @last_connected_ms, @last_update_id)
     ON CONFLICT (user_id) DO UPDATE SET last_active_ms = excluded.last_active_ms,
       last_connected_ms = excluded.last_connected_ms, last_update_id = excluded.last_update_id`,
  );
  return {
    byUser: (userId: number) => byUser.get(userId),
    viewOf: (userId: number) => viewOf.get(userId),
    /** Rows of active human users changed after `afterUpdateId` and connected since `sinceMs`. */
    changedSince,
    /**
     * The same rows as `changedSince` as one JSON object keyed by user ID, each row's entry
     * made by `entryOf` (always the same function: entries are kept per row written), and the
     * newest update ID among them.
     */
    modernJson,
    /**
     * Stores a user's presence under the next update ID of the organization. Rows are only
     * ever overwritten, never deleted, so the newest ID stored is the newest ever handed out.
     */
    store: (row: Omit<PresenceRow, 'last_update_id'>): PresenceRow => {
      const stored = { ...row, last_update_id: (newestUpdateId.get()!.id ?? 0) + 1 };
      const before = writes.stamp(PRESENCE_TABLES);
      upsert.run(stored);
      // Patched only when this write is the only one since the rows were read; else read again.
      if (kept?.stamp === before) {
        const added = !kept.rows.has(stored.user_id);
        kept.rows.set(stored.user_id, stored);
        // A person's first row goes to the end of the map: put it back in user order.
        if (added) kept.rows = new Map([...kept.rows].sort(([a], [b]) => a - b));
        kept.stamp = writes.stamp(PRESENCE_TABLES);
      } else {
        kept = null;
      }
      return stored;
    },
  };
}
