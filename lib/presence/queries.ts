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

type Person = { email: string; date_joined_ms: number };
type People = ReadonlyMap<number, Person>;

/** A kept row, with its entry in the modern format once made (kept until the row is written again). */
interface Slot {
  row: PresenceRow;
  entry: string | undefined;
  /** Its place in user order. */
  index: number;
}

/** The text of the rows of one block that passed a filter, with what bounds the filters that pass the same rows. */
interface BlockText {
  people: People;
  text: string;
  newestUpdateId: number | null;
  minPassedUpdateId: number;
  maxFailedUpdateId: number;
  minPassedConnectedMs: number;
  maxFailedConnectedMs: number;
}

interface KeptPresence {
  stamp: number;
  inUserOrder: Slot[];
  /** The same rows by ascending update ID (each ID is handed out once). */
  inUpdateOrder: Slot[];
  byUser: Map<number, Slot>;
  /** Text kept for each block of BLOCK_ROWS rows in user order. */
  blocks: Array<BlockText | undefined>;
}

/**
 * Rows in a block of kept text: a report makes this many entries' text again at the next
 * /register, which then joins one text a block.
 */
const BLOCK_ROWS = 32;
/** Up to this many rows changed since a client's last poll are picked from the newest end. */
const FEW_CHANGES = 64;

/** The index of the first slot with an update ID above `updateId` (the length when none). */
function firstAfter(inUpdateOrder: readonly Slot[], updateId: number): number {
  let low = 0;
  let high = inUpdateOrder.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (inUpdateOrder[middle]!.row.last_update_id > updateId) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Puts a row just stored into the kept rows, whose newest update ID it carries. */
function patch(rows: KeptPresence, row: PresenceRow): void {
  let slot = rows.byUser.get(row.user_id);
  if (slot) {
    const at = firstAfter(rows.inUpdateOrder, slot.row.last_update_id - 1);
    rows.inUpdateOrder.splice(rows.inUpdateOrder[at] === slot ? at : rows.inUpdateOrder.indexOf(slot), 1);
    slot.row = row;
    slot.entry = undefined;
    rows.blocks[Math.floor(slot.index / BLOCK_ROWS)] = undefined;
  } else {
    // A person's first row: into its place in user order, which moves every later row's block.
    let index = rows.inUserOrder.length;
    while (index > 0 && rows.inUserOrder[index - 1]!.row.user_id > row.user_id) index--;
    slot = { row, entry: undefined, index };
    rows.inUserOrder.splice(index, 0, slot);
    for (let i = index + 1; i < rows.inUserOrder.length; i++) rows.inUserOrder[i]!.index = i;
    rows.blocks.length = Math.min(rows.blocks.length, Math.floor(index / BLOCK_ROWS));
    rows.byUser.set(row.user_id, slot);
  }
  rows.inUpdateOrder.push(slot);
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
  // in memory in user order and in update order, patched by this connection's own writes and
  // read again after anyone else's (or a rollback); the people's part is kept until a user
  // row is written.
  const allInUserOrder = db
    .prepare<[], [number, number | null, number, number]>('SELECT user_id, last_active_ms, last_connected_ms, last_update_id FROM user_presence ORDER BY user_id')
    .raw(true);
  const humans = db.prepare<[], { id: number; email: string; date_joined_ms: number }>(
    'SELECT id, email, date_joined_ms FROM users WHERE is_active = 1 AND is_bot = 0',
  );
  const keptHumans = new KeptWhileUnwritten<People>(writes, ['users']);
  const keptPeople = () => keptHumans.get(() => new Map(humans.all().map(({ id, email, date_joined_ms }) => [id, { email, date_joined_ms }])));
  const PRESENCE_TABLES = ['user_presence'];
  let kept: KeptPresence | null = null;
  const keptRows = (): KeptPresence => {
    const stamp = writes.stamp(PRESENCE_TABLES);
    if (kept?.stamp !== stamp) {
      const inUserOrder: Slot[] = [];
      for (const [user_id, last_active_ms, last_connected_ms, last_update_id] of allInUserOrder.all()) {
        inUserOrder.push({ row: { user_id, last_active_ms, last_connected_ms, last_update_id }, entry: undefined, index: inUserOrder.length });
      }
      const inUpdateOrder = [...inUserOrder].sort((a, b) => a.row.last_update_id - b.row.last_update_id);
      kept = { stamp, inUserOrder, inUpdateOrder, byUser: new Map(inUserOrder.map((slot) => [slot.row.user_id, slot])), blocks: [] };
    }
    return kept;
  };
  const entryOfSlot = (slot: Slot, person: Person, entryOf: (view: PresenceView) => unknown): string =>
    (slot.entry ??= `"${slot.row.user_id}":${JSON.stringify(entryOf({ ...slot.row, ...person }))}`);
  /**
   * The rows that pass the filter out of one block of rows in user order, as text, and what
   * tells whether another filter would pass exactly the same rows.
   */
  const blockText = (slots: readonly Slot[], people: People, afterUpdateId: number, sinceMs: number, entryOf: (view: PresenceView) => unknown): BlockText => {
    const block: BlockText = {
      people,
      text: '',
      newestUpdateId: null,
      minPassedUpdateId: Infinity,
      maxFailedUpdateId: -Infinity,
      minPassedConnectedMs: Infinity,
      maxFailedConnectedMs: -Infinity,
    };
    for (const slot of slots) {
      const { last_update_id: updateId, last_connected_ms: connectedMs } = slot.row;
      if (updateId > afterUpdateId) block.minPassedUpdateId = Math.min(block.minPassedUpdateId, updateId);
      else block.maxFailedUpdateId = Math.max(block.maxFailedUpdateId, updateId);
      if (connectedMs >= sinceMs) block.minPassedConnectedMs = Math.min(block.minPassedConnectedMs, connectedMs);
      else block.maxFailedConnectedMs = Math.max(block.maxFailedConnectedMs, connectedMs);
      if (updateId <= afterUpdateId || connectedMs < sinceMs) continue;
      const person = people.get(slot.row.user_id);
      if (!person) continue;
      block.text += `${block.text === '' ? '' : ','}${entryOfSlot(slot, person, entryOf)}`;
      if (block.newestUpdateId === null || updateId > block.newestUpdateId) block.newestUpdateId = updateId;
    }
    return block;
  };
  /** Whether a block's text holds for this filter too: every row of the block passes or fails it as it passed or failed the block's. */
  const blockHolds = (block: BlockText, people: People, afterUpdateId: number, sinceMs: number): boolean =>
    block.people === people &&
    block.minPassedUpdateId > afterUpdateId &&
    block.maxFailedUpdateId <= afterUpdateId &&
    block.minPassedConnectedMs >= sinceMs &&
    (block.maxFailedConnectedMs === -Infinity || block.maxFailedConnectedMs < sinceMs);
  /** Rows of active human users changed after `afterUpdateId` and connected since `sinceMs`, in user order. */
  const matching = (afterUpdateId: number, sinceMs: number): Slot[] => {
    const people = keptPeople();
    return keptRows().inUserOrder.filter(
      ({ row }) => row.last_update_id > afterUpdateId && row.last_connected_ms >= sinceMs && people.has(row.user_id),
    );
  };
  const changedSince = (afterUpdateId: number, sinceMs: number): PresenceView[] => {
    const people = keptPeople();
    return matching(afterUpdateId, sinceMs).map(({ row }) => ({ ...row, ...people.get(row.user_id)! }));
  };
  const modernJson = (afterUpdateId: number, sinceMs: number, entryOf: (view: PresenceView) => unknown): { text: string; newestUpdateId: number | null } => {
    const people = keptPeople();
    const rows = keptRows();
    // A client that polls gets the few rows changed since its last poll: found from the
    // newest end of the rows in update order, without looking at the others.
    const firstChanged = firstAfter(rows.inUpdateOrder, afterUpdateId);
    if (rows.inUpdateOrder.length - firstChanged <= FEW_CHANGES) {
      const changed = rows.inUpdateOrder
        .slice(firstChanged)
        .filter(({ row }) => row.last_connected_ms >= sinceMs && people.has(row.user_id))
        .sort((a, b) => a.row.user_id - b.row.user_id);
      const text = changed.map((slot) => entryOfSlot(slot, people.get(slot.row.user_id)!, entryOf)).join(',');
      const newestUpdateId = changed.length === 0 ? null : Math.max(...changed.map((slot) => slot.row.last_update_id));
      return { text: `{${text}}`, newestUpdateId };
    }
    // Everyone's (a /register): the text of each block of rows is kept while its rows, the
    // people and the rows the filter passes stay the same, so a report makes only its own
    // block again, and the clock moving the history limit past a row makes its block again.
    const texts: string[] = [];
    let newestUpdateId: number | null = null;
    for (let b = 0; b * BLOCK_ROWS < rows.inUserOrder.length; b++) {
      let block = rows.blocks[b];
      if (!block || !blockHolds(block, people, afterUpdateId, sinceMs)) {
        block = blockText(rows.inUserOrder.slice(b * BLOCK_ROWS, (b + 1) * BLOCK_ROWS), people, afterUpdateId, sinceMs, entryOf);
        rows.blocks[b] = block;
      }
      if (block.text !== '') texts.push(block.text);
      if (block.newestUpdateId !== null && (newestUpdateId === null || block.newestUpdateId > newestUpdateId)) newestUpdateId = block.newestUpdateId;
    }
    return { text: `{${texts.join(',')}}`, newestUpdateId };
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
        patch(kept, stored);
        kept.stamp = writes.stamp(PRESENCE_TABLES);
      } else {
        kept = null;
      }
      return stored;
    },
  };
}
