import type { Statements } from '../db';

export const FieldType = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

export interface ProfileFieldRow {
  id: number;
  name: string;
  hint: string;
  field_type: number;
  field_data: string;
  position: number;
  display_in_profile_summary: 0 | 1;
  required: 0 | 1;
  editable_by_user: 0 | 1;
  use_for_user_matching: 0 | 1;
}

export type NewProfileField = Omit<ProfileFieldRow, 'id' | 'position'>;

export interface ProfileValueRow {
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

export function prepareProfileFieldQueries(db: Statements) {
  const inOrder = db.prepare<[], ProfileFieldRow>('SELECT * FROM custom_profile_fields ORDER BY position, id');
  const byId = db.prepare<[number], ProfileFieldRow>('SELECT * FROM custom_profile_fields WHERE id = ?');
  const byName = db.prepare<[string], ProfileFieldRow>('SELECT * FROM custom_profile_fields WHERE name = ?');
  const summaryCount = db.prepare<[number], { n: number }>(
    'SELECT count(*) AS n FROM custom_profile_fields WHERE display_in_profile_summary = 1 AND id != ?',
  );
  const insert = db.prepare<NewProfileField>(
    `INSERT INTO custom_profile_fields (name, hint, field_type, field_data, position, display_in_profile_summary,
       required, editable_by_user, use_for_user_matching)
     VALUES (@name, @hint, @field_type, @field_data, 0, @display_in_profile_summary, @required, @editable_by_user,
       @use_for_user_matching)`,
  );
  const update = db.prepare<ProfileFieldRow>(
    `UPDATE custom_profile_fields SET name = @name, hint = @hint, field_data = @field_data,
       display_in_profile_summary = @display_in_profile_summary, required = @required,
       editable_by_user = @editable_by_user, use_for_user_matching = @use_for_user_matching
     WHERE id = @id`,
  );
  const setPosition = db.prepare<[number, number]>('UPDATE custom_profile_fields SET position = ? WHERE id = ?');
  const remove = db.prepare<[number]>('DELETE FROM custom_profile_fields WHERE id = ?');

  const allValues = db.prepare<[], ProfileValueRow>('SELECT * FROM custom_profile_field_values ORDER BY user_id, field_id');
  const valuesOf = db.prepare<[number], ProfileValueRow>(
    'SELECT * FROM custom_profile_field_values WHERE user_id = ? ORDER BY field_id',
  );
  const value = db.prepare<[number, number], ProfileValueRow>(
    'SELECT * FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?',
  );
  const putValue = db.prepare<[number, number, string, string | null]>(
    `INSERT INTO custom_profile_field_values (user_id, field_id, value, rendered_value) VALUES (?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET value = excluded.value, rendered_value = excluded.rendered_value`,
  );
  const removeValue = db.prepare<[number, number]>('DELETE FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?');
  const removeValuesNotIn = db.prepare<[number, string]>(
    'DELETE FROM custom_profile_field_values WHERE field_id = ? AND value NOT IN (SELECT value FROM json_each(?))',
  );

  return {
    /** The organization's fields in the order clients show them. */
    inOrder: () => inOrder.all(),
    byId: (id: number) => byId.get(id),
    byName: (name: string) => byName.get(name),
    /** How many fields other than `exceptId` are shown in profile summaries. */
    summaryCount: (exceptId = 0) => summaryCount.get(exceptId)!.n,
    /** Adds a field at the end: its position is its ID, as Zulip does. */
    insert: (field: NewProfileField) => {
      const id = Number(insert.run(field).lastInsertRowid);
      setPosition.run(id, id);
      return id;
    },
    update: (field: ProfileFieldRow) => void update.run(field),
    setPosition: (id: number, position: number) => void setPosition.run(position, id),
    remove: (id: number) => void remove.run(id),
    allValues: () => allValues.all(),
    valuesOf: (userId: number) => valuesOf.all(userId),
    value: (userId: number, fieldId: number) => value.get(userId, fieldId),
    putValue: (userId: number, fieldId: number, text: string, rendered: string | null) =>
      void putValue.run(userId, fieldId, text, rendered),
    removeValue: (userId: number, fieldId: number) => removeValue.run(userId, fieldId).changes > 0,
    /** Drops a list-of-options field's values that are no longer among its options. */
    removeValuesNotIn: (fieldId: number, keptValues: readonly string[]) =>
      void removeValuesNotIn.run(fieldId, JSON.stringify(keptValues)),
  };
}
