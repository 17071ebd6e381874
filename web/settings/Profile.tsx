import { avatarUrlOf } from '../people/avatar-url';
import { useState } from 'preact/hooks';
import { del, patch, post } from '../api';
import { session, userName, users } from '../state';
import { PersonPicker } from '../people/PersonPicker';
import { Avatar } from '../people/Avatar';
import { FieldType, profileFields, type ProfileField } from '../people/state';
import { confirmAction } from '../ui/Confirm';
import { Field } from '../ui/Field';
import { reportError } from '../ui/Toasts';
import { useFlash } from '../ui/useFlash';

/** Personal settings' profile: name, avatar, and the custom profile fields one fills in oneself. */
export function Profile() {
  const me = users.value.get(session.value?.user_id ?? 0);
  const [fullName, setFullName] = useState(me?.full_name ?? '');
  const [saved, done] = useFlash();
  /** A form's submit handler: the change, then a word that it was made, or what went wrong. */
  const submitting = (change: () => Promise<unknown>, said: string) => async (event: Event) => {
    event.preventDefault();
    try {
      await change();
      done(said);
    } catch (err) {
      reportError(err);
    }
  };
  return (
    <>
      <form
        onSubmit={submitting(() => patch('/json/settings', { full_name: fullName }), 'Name saved.')}
      >
        <Field label="Full name" required value={fullName} onValue={setFullName} />
        <button type="submit" class="primary">
          Save name
        </button>
      </form>
      <form>
        <h2>Avatar</h2>
        <Avatar class="avatar large" url={avatarUrlOf(me)} size={100} alt="Your avatar" />
        <label>
          Upload a new avatar
          <input
            type="file"
            accept="image/*"
            onChange={async (e) => {
              const file = e.currentTarget.files?.[0];
              if (!file) return;
              const form = new FormData();
              form.append('file', file);
              try {
                await post('/json/users/me/avatar', form as unknown as Record<string, unknown>);
                done('Avatar changed.');
              } catch (err) {
                reportError(err);
              }
            }}
          />
        </label>
        {me?.avatar_url?.includes('/user_avatars/') && (
          <button
            type="button"
            onClick={async () => {
              if (!(await confirmAction('Delete your avatar?', 'Your picture goes back to the default one.', 'Delete'))) return;
              try {
                await del('/json/users/me/avatar');
                done('Avatar deleted.');
              } catch (err) {
                reportError(err);
              }
            }}
          >
            Delete avatar
          </button>
        )}
      </form>
      <ProfileFields />
      <p role="status">{saved}</p>
    </>
  );
}

/** The options of a select field, in their order. */
function selectOptions(field: ProfileField): Array<{ key: string; text: string }> {
  try {
    const data = JSON.parse(field.field_data || '{}') as Record<string, { text: string; order: string | number }>;
    return Object.entries(data)
      .sort(([, a], [, b]) => Number(a.order) - Number(b.order))
      .map(([key, option]) => ({ key, text: option.text }));
  } catch {
    return [];
  }
}

/**
 * The organization's custom profile fields, filled in by the person: each is saved when it
 * changes (an emptied field is removed), as Zulip's profile settings do. A field naming people
 * is a list of them, added with a person picker.
 */
function ProfileFields() {
  const self = session.value?.user_id ?? 0;
  const data = users.value.get(self)?.profile_data ?? {};
  const fields = profileFields.value;
  if (fields.length === 0) return null;
  const save = (field: ProfileField, value: string | number[]) => {
    const empty = typeof value === 'string' ? value.trim() === '' : value.length === 0;
    const change = empty ? del('/json/users/me/profile_data', { data: [field.id] }) : patch('/json/users/me/profile_data', { data: [{ id: field.id, value }] });
    change.catch(reportError);
  };
  return (
    <fieldset class="profile-fields">
      <legend>About you</legend>
      {fields.map((field) => {
        const value = data[field.id]?.value ?? '';
        if (field.type === FieldType.user) return <PeopleField key={field.id} field={field} value={value} onSave={(ids) => save(field, ids)} />;
        const hintId = field.hint ? `profile-field-hint-${field.id}` : undefined;
        const common = { value, 'aria-describedby': hintId, onChange: (e: Event) => save(field, (e.currentTarget as HTMLInputElement).value) };
        let input;
        if (field.type === FieldType.select) {
          input = (
            <select {...common}>
              <option value="">Not set</option>
              {selectOptions(field).map((o) => (
                <option key={o.key} value={o.key}>
                  {o.text}
                </option>
              ))}
            </select>
          );
        } else if (field.type === FieldType.longText) input = <textarea rows={3} {...common} />;
        else if (field.type === FieldType.date) input = <input type="date" {...common} />;
        else if (field.type === FieldType.link) input = <input type="url" {...common} />;
        else input = <input type="text" {...common} />;
        return (
          <div key={field.id}>
            <label>
              {field.name}
              {input}
            </label>
            {hintId && (
              <p class="hint" id={hintId}>
                {field.hint}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

/** The people a field names, stored as a JSON list of user IDs. */
function peopleIn(value: string): number[] {
  try {
    const ids = JSON.parse(value || '[]') as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
  } catch {
    return [];
  }
}

/** A field naming people (a manager, a mentor): the chosen ones, each removable, and a picker for more. */
function PeopleField({ field, value, onSave }: { field: ProfileField; value: string; onSave: (ids: number[]) => void }) {
  const chosen = peopleIn(value);
  const hintId = field.hint ? `profile-field-hint-${field.id}` : undefined;
  return (
    <div class="profile-people-field" role="group" aria-labelledby={`profile-field-${field.id}`} aria-describedby={hintId}>
      <span class="field-label" id={`profile-field-${field.id}`}>
        {field.name}
      </span>
      {chosen.length > 0 && (
        <ul class="chips" aria-label={`People in ${field.name}`}>
          {chosen.map((id) => (
            <li key={id}>
              {userName(id)}
              <button type="button" aria-label={`Remove ${userName(id)} from ${field.name}`} onClick={() => onSave(chosen.filter((other) => other !== id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <PersonPicker label={`Add a person to ${field.name}`} exclude={chosen} onPick={(person) => onSave([...chosen, person.user_id])} />
      {hintId && (
        <p class="hint" id={hintId}>
          {field.hint}
        </p>
      )}
    </div>
  );
}
