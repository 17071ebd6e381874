import type { Stoa } from '../stoa';
import type { NarrowTerm } from './narrow';
import { compileNarrow, rowConditions } from './narrow';
import type { MessageRow } from './queries';

const compiledByNarrow = new WeakMap<object, ReturnType<typeof compileNarrow> | null>();

/**
 * Whether a new message matches the narrow an event queue was registered with. The narrow is
 * compiled once per queue to the same SQL GET /messages uses, and checked against the one
 * message with the receiver's flags bound, so events and fetches agree exactly.
 */
export function matchesEventNarrow(
  stoa: Stoa,
  userId: number,
  narrow: ReadonlyArray<Omit<NarrowTerm, 'negated'> & { negated?: boolean }>,
  row: MessageRow,
  flags: number,
): boolean {
  if (narrow.length === 0) return true;
  let compiled = compiledByNarrow.get(narrow);
  if (compiled === undefined) {
    try {
      compiled = compileNarrow(
        stoa,
        stoa.users.byId(userId)!,
        narrow.map((term) => ({ ...term, negated: term.negated ?? false })),
      );
    } catch {
      compiled = null; // a narrow naming something that no longer exists matches nothing
    }
    compiledByNarrow.set(narrow, compiled);
  }
  if (compiled === null) return false;
  const conditions = rowConditions(compiled).map((c) => c.replaceAll('FLAGS', '@flags'));
  const sql = `SELECT 1 FROM messages m WHERE m.id = @message ${conditions.map((c) => `AND ${c}`).join(' ')}`;
  return stoa.messages.prepared(sql).get({ ...compiled.params, message: row.id, flags }) !== undefined;
}
