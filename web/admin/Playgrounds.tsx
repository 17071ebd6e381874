import { useState } from 'preact/hooks';
import { del, post } from '../api';
import { realmSettings } from '../channels/state';
import { confirmAction } from '../ui/Confirm';
import { Field } from '../ui/Field';
import { reportError } from '../ui/Toasts';
import { ActionsHeader, errorText, FormError, SavedNote, useSavedNote } from './forms';
import { addOrganizationStyles } from './organization-styles';

addOrganizationStyles();

interface Playground {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

/**
 * Code playgrounds: a code block in a language gets a button that opens its code in the
 * playground's site. Add and delete; the list follows `realm_playgrounds` events.
 */
export function Playgrounds() {
  const playgrounds = (realmSettings.value.realm_playgrounds as Playground[] | undefined) ?? [];
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('');
  const [template, setTemplate] = useState('');
  const [error, setError] = useState('');
  const [note, say] = useSavedNote();
  const add = async (event: Event) => {
    event.preventDefault();
    setError('');
    try {
      await post('/json/realm/playgrounds', { name, pygments_language: language, url_template: template });
      setName('');
      setLanguage('');
      setTemplate('');
      say('Playground added.');
    } catch (err) {
      setError(errorText(err));
    }
  };
  const remove = async (playground: Playground) => {
    if (!(await confirmAction('Delete code playground?', `${playground.pygments_language} code blocks will no longer offer ${playground.name}.`, 'Delete'))) return;
    try {
      await del(`/json/realm/playgrounds/${playground.id}`);
    } catch (err) {
      reportError(err);
    }
  };
  return (
    <div class="org-page">
      <form onSubmit={add} aria-labelledby="add-playground-title">
        <fieldset>
          <legend id="add-playground-title">Add a code playground</legend>
          <Field label="Language" required value={language} onValue={setLanguage} />
          <p class="hint">The language of the code blocks, as they name it (e.g. python, rust).</p>
          <Field label="Name" required value={name} onValue={setName} />
          <Field label="URL template" required value={template} onValue={setTemplate} />
          <p class="hint">Where the code goes, e.g. https://play.example.com/?code={'{code}'}</p>
          <FormError text={error} />
          <button type="submit" class="primary">
            Add playground
          </button>
          <SavedNote text={note} />
        </fieldset>
      </form>
      <section aria-labelledby="playground-list-title">
        <h3 id="playground-list-title">Current code playgrounds</h3>
        <table class="org-table">
          <thead>
            <tr>
              <th scope="col">Language</th>
              <th scope="col">Name</th>
              <th scope="col">URL template</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {playgrounds.map((playground) => (
              <tr key={playground.id}>
                <td>{playground.pygments_language}</td>
                <td>{playground.name}</td>
                <td>
                  <code>{playground.url_template}</code>
                </td>
                <td class="actions">
                  <button type="button" class="danger" aria-label={`Delete ${playground.name}`} onClick={() => remove(playground)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {playgrounds.length === 0 && <p class="hint">No code playgrounds yet.</p>}
      </section>
    </div>
  );
}
