import type { Statements } from '../db';
import { KeptWhileUnwritten, type TableWrites } from '../table-writes';

/** A linkifier as clients see it; the Markdown renderer reads only its pattern and URL template. */
export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
  example_input: string | null;
  reverse_template: string | null;
  alternative_url_templates: string[];
}

/** What an administrator sets on a linkifier. */
export type LinkifierFields = Omit<Linkifier, 'id'>;

type LinkifierRow = Omit<Linkifier, 'alternative_url_templates'> & { alternative_url_templates: string };

const COLUMNS = 'id, pattern, url_template, example_input, reverse_template, alternative_url_templates';

function fromRow(row: LinkifierRow): Linkifier {
  return { ...row, alternative_url_templates: JSON.parse(row.alternative_url_templates) as string[] };
}

function toRow(fields: LinkifierFields) {
  return { ...fields, alternative_url_templates: JSON.stringify(fields.alternative_url_templates) };
}

export function prepareLinkifierQueries(db: Statements, writes: TableWrites) {
  const inOrder = db.prepare<[], LinkifierRow>(`SELECT ${COLUMNS} FROM realm_linkifiers ORDER BY position, id`);
  const byId = db.prepare<[number], LinkifierRow>(`SELECT ${COLUMNS} FROM realm_linkifiers WHERE id = ?`);
  const byPattern = db.prepare<[string], LinkifierRow>(`SELECT ${COLUMNS} FROM realm_linkifiers WHERE pattern = ?`);
  const insert = db.prepare<ReturnType<typeof toRow>>(
    `INSERT INTO realm_linkifiers (pattern, url_template, example_input, reverse_template, alternative_url_templates, position)
     VALUES (@pattern, @url_template, @example_input, @reverse_template, @alternative_url_templates,
             (SELECT COALESCE(MAX(position) + 1, 0) FROM realm_linkifiers))`,
  );
  const update = db.prepare<ReturnType<typeof toRow> & { id: number }>(
    `UPDATE realm_linkifiers SET pattern = @pattern, url_template = @url_template, example_input = @example_input,
       reverse_template = @reverse_template, alternative_url_templates = @alternative_url_templates WHERE id = @id`,
  );
  const setPosition = db.prepare<[number, number]>('UPDATE realm_linkifiers SET position = ? WHERE id = ?');
  const remove = db.prepare<[number]>('DELETE FROM realm_linkifiers WHERE id = ?');
  // Read for every message rendered and every topic shown: kept until a linkifier is written.
  const kept = new KeptWhileUnwritten<readonly Linkifier[]>(writes, ['realm_linkifiers']);
  return {
    /** The organization's linkifiers in the order they apply: what the Markdown renderer reads. Shared: not to be changed. */
    realmLinkifiers: (): readonly Linkifier[] => kept.get(() => inOrder.all().map(fromRow)),
    byId: (id: number) => {
      const row = byId.get(id);
      return row && fromRow(row);
    },
    byPattern: (pattern: string) => {
      const row = byPattern.get(pattern);
      return row && fromRow(row);
    },
    /** Adds a linkifier after all the others. */
    insert: (fields: LinkifierFields) => Number(insert.run(toRow(fields)).lastInsertRowid),
    update: (id: number, fields: LinkifierFields) => void update.run({ ...toRow(fields), id }),
    setPosition: (id: number, position: number) => void setPosition.run(position, id),
    remove: (id: number) => void remove.run(id),
  };
}
