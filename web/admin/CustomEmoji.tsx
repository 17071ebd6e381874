import { useEffect, useState } from 'preact/hooks';
import { del, post, type Params } from '../api';
import { realmEmoji, userName } from '../state';
import { confirmAction } from '../ui/Confirm';
import { Field } from '../ui/Field';
import { reportError } from '../ui/Toasts';
import { ActionsHeader, errorText, fileForm, FormError, SavedNote, useSavedNote } from './forms';
import { addOrganizationStyles } from './organization-styles';

addOrganizationStyles();

/**
 * The organization's custom emoji: add one (a name and an image), and the list with who added
 * each, where one can be deleted. The list follows `realm_emoji` events.
 */
export function CustomEmoji() {
  const [filter, setFilter] = useState('');
  const emoji = [...realmEmoji.value.values()]
    .filter((e) => !e.deactivated && e.name.includes(filter.trim().toLowerCase().replace(/ /g, '_')))
    .sort((a, b) => a.name.localeCompare(b.name));
  const remove = async (name: string) => {
    if (!(await confirmAction('Delete custom emoji?', `:${name}: will no longer be offered. Messages that already use it keep showing it.`, 'Delete'))) return;
    try {
      await del(`/json/realm/emoji/${encodeURIComponent(name)}`);
    } catch (err) {
      reportError(err);
    }
  };
  return (
    <div class="org-page">
      <AddEmoji />
      <section aria-labelledby="emoji-list-title">
        <h3 id="emoji-list-title">Custom emoji of the organization</h3>
        <Field label="Filter emoji" value={filter} onValue={setFilter} />
        <table class="org-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Image</th>
              <th scope="col">Author</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {emoji.map((e) => {
              const author = (e as { author_id?: number | null }).author_id;
              return (
                <tr key={e.id}>
                  <td>:{e.name}:</td>
                  <td>
                    <img class="emoji-image" src={e.source_url} alt={`:${e.name}:`} loading="lazy" />
                  </td>
                  <td>{author ? userName(author) : 'Unknown'}</td>
                  <td class="actions">
                    <button type="button" class="danger" aria-label={`Delete :${e.name}:`} onClick={() => remove(e.name)}>
                      Delete
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {emoji.length === 0 && <p class="hint">{filter ? 'No custom emoji match.' : 'No custom emoji yet.'}</p>}
      </section>
    </div>
  );
}

/** The form that adds an emoji: its name, its image (previewed before sending). */
function AddEmoji() {
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, say] = useSavedNote();
  // Each chosen file gets a URL of its own, given back when another is chosen or the page closes.
  useEffect(() => {
    if (!file) return setPreview('');
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!file) return setError('Choose an image for the emoji.');
    setBusy(true);
    setError('');
    const emojiName = name.trim().toLowerCase();
    try {
      await post(`/json/realm/emoji/${encodeURIComponent(emojiName)}`, fileForm(file) as unknown as Params);
      setName('');
      setFile(null);
      (event.target as HTMLFormElement).reset();
      say(`:${emojiName.replace(/ /g, '_')}: added.`);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} aria-labelledby="add-emoji-title">
      <fieldset>
        <legend id="add-emoji-title">Add a custom emoji</legend>
        <Field label="Emoji name" required maxLength={60} value={name} onValue={setName} />
        <p class="hint">Lowercase letters, digits, dashes and underscores; a space becomes an underscore.</p>
        <div class="row">
          <label>
            Emoji image
            <input type="file" required accept="image/png,image/jpeg,image/gif,image/webp" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
          </label>
          {preview && <img class="emoji-image" src={preview} alt="Preview of the new emoji" width={32} height={32} />}
        </div>
        <FormError text={error} />
        <button type="submit" class="primary" disabled={busy}>
          Add emoji
        </button>
        <SavedNote text={note} />
      </fieldset>
    </form>
  );
}
