import { sendEvent, write } from '../events/send';
import { renderMarkdown } from '../markdown/render';
import { markdownContextFor } from '../markdown/context';
import type { Stoa } from '../stoa';
import { usersWhoCanAccess } from '../users/access';
import { presentFields } from './present';
import { FieldType, type NewProfileField, type ProfileFieldRow } from './queries';
import { isRenderable } from './values';

/** Everyone gets the whole new list of fields after any change to it. */
function announceFields(stoa: Stoa): void {
  sendEvent(stoa, { type: 'custom_profile_fields', fields: presentFields(stoa) }, stoa.users.activeIds());
}

export function addField(stoa: Stoa, field: NewProfileField): number {
  return write(stoa, () => {
    const id = stoa.profileFields.insert(field);
    announceFields(stoa);
    return id;
  });
}

/**
 * Saves a field's new definition. Users who had picked an option that a list of options no
 * longer offers lose that value, as on Zulip (which announces only the new field list).
 */
export function updateField(stoa: Stoa, field: ProfileFieldRow): void {
  write(stoa, () => {
    stoa.profileFields.update(field);
    if (field.field_type === FieldType.SELECT) {
      stoa.profileFields.removeValuesNotIn(field.id, Object.keys(JSON.parse(field.field_data || '{}')));
    }
    announceFields(stoa);
  });
}

/** Deletes a field with every user's value for it. */
export function removeField(stoa: Stoa, fieldId: number): void {
  write(stoa, () => {
    stoa.profileFields.remove(fieldId);
    announceFields(stoa);
  });
}

/** Gives fields new positions, as [field ID, position] pairs. */
export function reorderFields(stoa: Stoa, positions: ReadonlyArray<readonly [number, number]>): void {
  write(stoa, () => {
    for (const [id, position] of positions) stoa.profileFields.setPosition(id, position);
    announceFields(stoa);
  });
}

/** One change to a user's profile: new checked text for a field, or null to clear it. */
export interface ProfileChange {
  field: ProfileFieldRow;
  value: string | null;
}

function announceValue(stoa: Stoa, userId: number, fieldId: number, value: string | null, rendered: string | null): void {
  const customProfileField: Record<string, unknown> = { id: fieldId, value };
  if (rendered !== null) customProfileField.rendered_value = rendered;
  const person = { user_id: userId, custom_profile_field: customProfileField };
  sendEvent(stoa, { type: 'realm_user', op: 'update', person }, usersWhoCanAccess(stoa, stoa.users.byId(userId)!));
}

/** Applies a user's profile changes together; only values that really change are announced. */
export function changeProfileValues(stoa: Stoa, userId: number, changes: readonly ProfileChange[]): void {
  write(stoa, () => {
    for (const { field, value } of changes) {
      if (value === null) {
        if (stoa.profileFields.removeValue(userId, field.id)) announceValue(stoa, userId, field.id, null, null);
        continue;
      }
      if (stoa.profileFields.value(userId, field.id)?.value === value) continue;
      const rendered = isRenderable(field) ? renderMarkdown(value, markdownContextFor(stoa)).html : null;
      stoa.profileFields.putValue(userId, field.id, value, rendered);
      announceValue(stoa, userId, field.id, value, rendered);
    }
  });
}
