import { useState } from 'preact/hooks';
import { del, patch, post } from '../api';
import { realmSettings } from '../channels/state';
import { confirmAction } from '../ui/Confirm';
import { Field } from '../ui/Field';
import { reportError } from '../ui/Toasts';
import { errorText, FormError, movedIds, OrderedItemActions, SavedNote, useSavedNote } from './forms';
import { addOrganizationStyles } from './organization-styles';

addOrganizationStyles();

interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

/**
 * The organization's linkifiers: text matching a pattern becomes a link (e.g. `#123` to an
 * issue). Add, edit, delete and reorder (the first match wins); the list follows
 * `realm_linkifiers` events.
 */
export function Linkifiers() {
  const linkifiers = (realmSettings.value.realm_linkifiers as Linkifier[] | undefined) ?? [];
  const [editing, setEditing] = useState<number | null>(null);
  const remove = async (linkifier: Linkifier) => {
    if (!(await confirmAction('Delete linkifier?', `Text matching ${linkifier.pattern} will no longer become a link in new messages.`, 'Delete'))) return;
    try {
      await del(`/json/realm/filters/${linkifier.id}`);
    } catch (err) {
      reportError(err);
    }
  };
  const move = async (index: number, by: -1 | 1) => {
    try {
      await patch('/json/realm/linkifiers', { ordered_linkifier_ids: movedIds(linkifiers.map((l) => l.id), index, by) });
    } catch (err) {
      reportError(err);
    }
  };
  return (
    <div class="org-page">
      <LinkifierForm title="Add a linkifier" submitLabel="Add linkifier" saved="Linkifier added." send={(params) => post('/json/realm/filters', params)} />
      <section aria-labelledby="linkifier-list-title">
        <h3 id="linkifier-list-title">Current linkifiers</h3>
        <p class="hint">When several patterns match the same text, the first in this list wins.</p>
        <ul class="org-list">
          {linkifiers.map((linkifier, index) => (
            <li key={linkifier.id}>
              <span class="what">
                <code>{linkifier.pattern}</code>
                <small>{linkifier.url_template}</small>
              </span>
              <OrderedItemActions
                name={linkifier.pattern}
                index={index}
                count={linkifiers.length}
                editing={editing === linkifier.id}
                onMove={(by) => move(index, by)}
                onEdit={() => setEditing(editing === linkifier.id ? null : linkifier.id)}
                onDelete={() => remove(linkifier)}
              />
              {editing === linkifier.id && (
                <LinkifierForm
                  title={`Edit ${linkifier.pattern}`}
                  submitLabel="Save linkifier"
                  saved=""
                  initial={linkifier}
                  send={async (params) => {
                    await patch(`/json/realm/filters/${linkifier.id}`, params);
                    setEditing(null);
                  }}
                  onCancel={() => setEditing(null)}
                />
              )}
            </li>
          ))}
        </ul>
        {linkifiers.length === 0 && <p class="hint">No linkifiers yet.</p>}
      </section>
    </div>
  );
}

/** A linkifier's pattern and URL template, sent by `send`; the server's objection is shown in the form. */
function LinkifierForm({ title, submitLabel, saved, initial, send, onCancel }: {
  title: string;
  submitLabel: string;
  saved: string;
  initial?: Linkifier;
  send: (params: { pattern: string; url_template: string }) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [pattern, setPattern] = useState(initial?.pattern ?? '');
  const [template, setTemplate] = useState(initial?.url_template ?? '');
  const [error, setError] = useState('');
  const [note, say] = useSavedNote();
  const submit = async (event: Event) => {
    event.preventDefault();
    setError('');
    try {
      await send({ pattern, url_template: template });
      if (!initial) {
        setPattern('');
        setTemplate('');
      }
      if (saved) say(saved);
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <form onSubmit={submit} aria-label={title}>
      <fieldset>
        <legend>{title}</legend>
        <Field label="Pattern" required value={pattern} onValue={setPattern} />
        <p class="hint">A regular expression, e.g. #(?P&lt;id&gt;[0-9]+)</p>
        <Field label="URL template" required value={template} onValue={setTemplate} />
        <p class="hint">The link, naming the pattern's groups, e.g. https://github.com/example/project/issues/{'{id}'}</p>
        <FormError text={error} />
        <div class="row">
          <button type="submit" class="primary">
            {submitLabel}
          </button>
          {onCancel && (
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
          )}
        </div>
        <SavedNote text={note} />
      </fieldset>
    </form>
  );
}
