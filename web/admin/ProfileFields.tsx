import { useState } from 'preact/hooks';
import { del, patch, post, type Params } from '../api';
import { FieldType, profileFields, type ProfileField } from '../people/state';
import { confirmAction } from '../ui/Confirm';
import { Field } from '../ui/Field';
import { reportError } from '../ui/Toasts';
import { errorText, FormError, movedIds, OrderedItemActions, SavedNote, useSavedNote } from './forms';
import { addOrganizationStyles } from './organization-styles';

addOrganizationStyles();

/** A field as register and `custom_profile_fields` events give it, with the flags this page edits. */
type AdminField = ProfileField & { required?: boolean; editable_by_user?: boolean };

const TYPE_LABELS: Array<[number, string]> = [
  [FieldType.shortText, 'Short text'],
  [FieldType.longText, 'Long text'],
  [FieldType.select, 'List of options'],
  [FieldType.date, 'Date'],
  [FieldType.link, 'Link'],
  [FieldType.user, 'Users'],
  [FieldType.externalAccount, 'External account'],
  [FieldType.pronouns, 'Pronouns'],
];

const typeLabel = (type: number) => TYPE_LABELS.find(([t]) => t === type)?.[1] ?? 'Unknown type';

/** The external accounts the server knows (their label and link are its own), then one's own pattern. */
const ACCOUNT_KINDS: Array<[string, string]> = [
  ['github', 'GitHub'],
  ['twitter', 'Twitter'],
  ['custom', 'Custom'],
];

/**
 * The organization's custom profile fields: the list in the order profiles show them (move up
 * and down), create one of any type (a list of options with its choices), edit and delete. The
 * list follows `custom_profile_fields` events.
 */
export function ProfileFields() {
  const fields = profileFields.value as AdminField[];
  const [editing, setEditing] = useState<number | null>(null);
  const move = async (index: number, by: -1 | 1) => {
    try {
      await patch('/json/realm/profile_fields', { order: movedIds(fields.map((f) => f.id), index, by) });
    } catch (err) {
      reportError(err);
    }
  };
  const remove = async (field: AdminField) => {
    if (!(await confirmAction('Delete profile field?', `“${field.name}” and everyone’s answers to it will be deleted.`, 'Delete'))) return;
    try {
      await del(`/json/realm/profile_fields/${field.id}`);
    } catch (err) {
      reportError(err);
    }
  };
  return (
    <div class="org-page">
      <FieldForm />
      <section aria-labelledby="profile-field-list-title">
        <h3 id="profile-field-list-title">Profile fields</h3>
        <p class="hint">Profiles show the fields in this order.</p>
        <ul class="org-list">
          {fields.map((field, index) => (
            <li key={field.id}>
              <span class="what">
                {field.name}
                <small>
                  {typeLabel(field.type)}
                  {field.required ? ', required' : ''}
                  {field.display_in_profile_summary ? ', shown on user cards' : ''}
                  {field.hint ? ` · ${field.hint}` : ''}
                </small>
              </span>
              <OrderedItemActions
                name={field.name}
                index={index}
                count={fields.length}
                editing={editing === field.id}
                onMove={(by) => move(index, by)}
                onEdit={() => setEditing(editing === field.id ? null : field.id)}
                onDelete={() => remove(field)}
              />
              {editing === field.id && <FieldForm field={field} onDone={() => setEditing(null)} />}
            </li>
          ))}
        </ul>
        {fields.length === 0 && <p class="hint">No custom profile fields yet.</p>}
      </section>
    </div>
  );
}

interface Choice {
  /** The option's key in field_data: kept for existing options, so people's answers stay. */
  key: string;
  text: string;
}

function choicesOf(field: AdminField | undefined): Choice[] {
  if (!field || field.type !== FieldType.select || !field.field_data) return [{ key: '0', text: '' }];
  const data = JSON.parse(field.field_data) as Record<string, { text: string; order: string }>;
  return Object.entries(data)
    .sort(([, a], [, b]) => Number(a.order) - Number(b.order))
    .map(([key, option]) => ({ key, text: option.text }));
}

function accountOf(field: AdminField | undefined): { subtype: string; url_pattern?: string } {
  if (!field || field.type !== FieldType.externalAccount || !field.field_data) return { subtype: 'github' };
  return JSON.parse(field.field_data) as { subtype: string; url_pattern?: string };
}

/** Creates a field, or edits `field` (whose type stays what it is, as in Zulip). */
function FieldForm({ field, onDone }: { field?: AdminField; onDone?: () => void }) {
  const [type, setType] = useState<number>(field?.type ?? FieldType.shortText);
  const [name, setName] = useState(field?.name ?? '');
  const [hint, setHint] = useState(field?.hint ?? '');
  const [choices, setChoices] = useState<Choice[]>(() => choicesOf(field));
  const [account, setAccount] = useState(() => accountOf(field));
  const [summary, setSummary] = useState(Boolean(field?.display_in_profile_summary));
  const [required, setRequired] = useState(Boolean(field?.required));
  const [editable, setEditable] = useState(field?.editable_by_user ?? true);
  const [error, setError] = useState('');
  const [note, say] = useSavedNote();
  const defaultAccount = type === FieldType.externalAccount && account.subtype !== 'custom';
  const title = field ? `Edit ${field.name}` : 'Add a profile field';
  const id = field ? `profile-field-form-${field.id}` : 'profile-field-form-new';

  const fieldData = (): Record<string, unknown> | undefined => {
    if (type === FieldType.select) {
      return Object.fromEntries(choices.map((choice, order) => [choice.key, { text: choice.text.trim(), order: String(order) }]));
    }
    if (type === FieldType.externalAccount) return account.subtype === 'custom' ? account : { subtype: account.subtype };
    return undefined;
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setError('');
    const params: Params = { hint, display_in_profile_summary: summary, required, editable_by_user: editable };
    // A known external account's label and hint are the server's.
    if (!defaultAccount) params.name = name;
    else delete params.hint;
    const data = fieldData();
    if (data) params.field_data = data;
    try {
      if (field) {
        await patch(`/json/realm/profile_fields/${field.id}`, params);
        onDone?.();
      } else {
        await post('/json/realm/profile_fields', { ...params, field_type: type });
        setName('');
        setHint('');
        setChoices([{ key: '0', text: '' }]);
        say('Profile field added.');
      }
    } catch (err) {
      setError(errorText(err));
    }
  };
  const nextKey = () => String(Math.max(-1, ...choices.map((c) => Number(c.key)).filter((n) => Number.isFinite(n))) + 1);
  return (
    <form onSubmit={submit} aria-labelledby={id}>
      <fieldset>
        <legend id={id}>{title}</legend>
        {!field && (
          <label>
            Type
            <select value={String(type)} onChange={(e) => setType(Number(e.currentTarget.value))}>
              {TYPE_LABELS.map(([value, label]) => (
                <option key={value} value={String(value)}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        )}
        {type === FieldType.externalAccount && (
          <label>
            External account
            <select value={account.subtype} disabled={Boolean(field)} onChange={(e) => setAccount({ ...account, subtype: e.currentTarget.value })}>
              {ACCOUNT_KINDS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        )}
        {!defaultAccount && (
          <>
            <Field label="Label" required maxLength={40} value={name} onValue={setName} />
            <Field label="Hint" maxLength={80} value={hint} onValue={setHint} />
          </>
        )}
        {type === FieldType.externalAccount && account.subtype === 'custom' && (
          <>
            <Field label="URL pattern" required value={account.url_pattern ?? ''} onValue={(url_pattern) => setAccount({ ...account, url_pattern })} />
            <p class="hint">The link to an account, with %(username)s where the username goes.</p>
          </>
        )}
        {type === FieldType.select && (
          <fieldset>
            <legend>Options</legend>
            <ol class="choice-options">
              {choices.map((choice, index) => (
                <li key={choice.key}>
                  <label>
                    {`Option ${index + 1}`}
                    <input
                      required
                      value={choice.text}
                      onInput={(e) => {
                        const text = e.currentTarget.value;
                        setChoices(choices.map((c) => (c.key === choice.key ? { ...c, text } : c)));
                      }}
                    />
                  </label>
                  <button type="button" aria-label={`Remove option ${index + 1}`} disabled={choices.length === 1} onClick={() => setChoices(choices.filter((c) => c.key !== choice.key))}>
                    Remove
                  </button>
                </li>
              ))}
            </ol>
            <button type="button" onClick={() => setChoices([...choices, { key: nextKey(), text: '' }])}>
              Add an option
            </button>
          </fieldset>
        )}
        <label class="inline">
          <input type="checkbox" checked={summary} disabled={type === FieldType.longText || type === FieldType.user} onChange={(e) => setSummary(e.currentTarget.checked)} /> Show on user cards
        </label>
        <label class="inline">
          <input type="checkbox" checked={required} onChange={(e) => setRequired(e.currentTarget.checked)} /> Required
        </label>
        <label class="inline">
          <input type="checkbox" checked={editable} onChange={(e) => setEditable(e.currentTarget.checked)} /> People can edit their own answer
        </label>
        <FormError text={error} />
        <div class="row">
          <button type="submit" class="primary">
            {field ? 'Save field' : 'Add field'}
          </button>
          {onDone && (
            <button type="button" onClick={onDone}>
              Cancel
            </button>
          )}
        </div>
        <SavedNote text={note} />
      </fieldset>
    </form>
  );
}
