import type { Db } from './db';

/**
 * Counts the rows written to some tables, whoever writes them, through temporary triggers
 * (they live only in this connection and are never stored in the file). State that many
 * requests share and that is built from those tables, such as the people of `/register`, is
 * kept while the count stays where it was when the state was built.
 *
 * A write undone by a rollback has already moved the count, which only costs a rebuild; but
 * state built inside a transaction that is then rolled back may hold the undone write without
 * a later count to tell, so every rollback moves all the counts too (`forget`).
 */
export class TableWrites {
  private readonly counts = new Map<string, number>();
  private rollbacks = 0;

  /**
   * `changedOnly` are tables whose new rows do not count, only rows changed or deleted: what
   * was kept of the rows already there still holds when rows are added.
   */
  constructor(db: Db, tables: readonly string[], changedOnly: readonly string[] = []) {
    db.function('stoa_table_written', { deterministic: false, varargs: false }, (table: unknown) => {
      const name = String(table);
      this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
      return null;
    });
    for (const table of [...tables, ...changedOnly]) {
      this.counts.set(table, 0);
      for (const event of changedOnly.includes(table) ? ['UPDATE', 'DELETE'] : ['INSERT', 'UPDATE', 'DELETE']) {
        db.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS stoa_written_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table}
           BEGIN SELECT stoa_table_written('${table}'); END`,
        );
      }
    }
  }

  /** A stamp that changes whenever a row of any of these tables is written, or a transaction rolled back. */
  stamp(tables: readonly string[]): number {
    let sum = this.rollbacks;
    for (const table of tables) {
      const count = this.counts.get(table);
      if (count === undefined) throw new Error(`writes to ${table} are not counted`);
      sum += count;
    }
    return sum;
  }

  /** After a rollback: whatever was built since the transaction began may hold undone writes. */
  forget(): void {
    this.rollbacks++;
  }
}

/**
 * A value built from some tables, kept until a row of one of them is written: `get` builds it
 * on first use and again only after such a write.
 */
export class KeptWhileUnwritten<T> {
  private kept: { stamp: number; value: T } | null = null;

  constructor(
    private readonly writes: TableWrites,
    private readonly tables: readonly string[],
  ) {}

  /** Lets go of the value: the next get builds it again. */
  forget(): void {
    this.kept = null;
  }

  get(build: () => T): T {
    const stamp = this.writes.stamp(this.tables);
    if (this.kept?.stamp !== stamp) this.kept = { stamp, value: build() };
    return this.kept.value;
  }
}
