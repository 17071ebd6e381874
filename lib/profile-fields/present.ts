import type { Stoa } from '../stoa';
import type { ProfileFieldRow, ProfileValueRow } from './queries';

/** A CustomProfileField object of the API. */
export function presentField(field: ProfileFieldRow): Record<string, unknown> {
  const presented: Record<string, unknown> = {
    id: field.id,
    name: field.name,
    type: field.field_type,
    hint: field.hint,
    field_data: field.field_data,
    order: field.position,
    required: field.required === 1,
    editable_by_user: field.editable_by_user === 1,
  };
  // Zulip sends these two only when they are set.
  if (field.display_in_profile_summary) presented.display_in_profile_summary = true;
  if (field.use_for_user_matching) presented.use_for_user_matching = true;
  return presented;
}

export function presentFields(stoa: Stoa): Array<Record<string, unknown>> {
  return stoa.profileFields.inOrder().map(presentField);
}

export interface ProfileEntry {
  value: string;
  rendered_value?: string;
}

/** Users' custom profile data by user ID: what `profile_data` holds for each. */
export type ProfileValues = Map<number, Record<string, ProfileEntry>>;

function entryOf(row: ProfileValueRow): ProfileEntry {
  return row.rendered_value === null ? { value: row.value } : { value: row.value, rendered_value: row.rendered_value };
}

function collect(rows: readonly ProfileValueRow[]): ProfileValues {
  const byUser: ProfileValues = new Map();
  for (const row of rows) {
    let data = byUser.get(row.user_id);
    if (!data) byUser.set(row.user_id, (data = {}));
    data[String(row.field_id)] = entryOf(row);
  }
  return byUser;
}

/** Every user's profile data, read once for a whole user list. */
export function allProfileValues(stoa: Stoa): ProfileValues {
  return collect(stoa.profileFields.allValues());
}

/** One user's profile data. */
export function profileValuesOf(stoa: Stoa, userId: number): ProfileValues {
  return collect(stoa.profileFields.valuesOf(userId));
}
