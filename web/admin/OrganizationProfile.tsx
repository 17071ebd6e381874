import { useState } from 'preact/hooks';
import { del, patch, post, type Params } from '../api';
import { realmSettings } from '../channels/state';
import { realm } from '../state';
import { confirmAction } from '../ui/Confirm';
import { Field } from '../ui/Field';
import { reportError } from '../ui/Toasts';
import { errorText, fileForm, FormError, SavedNote, useSavedNote } from './forms';
import { addOrganizationStyles } from './organization-styles';

addOrganizationStyles();

/**
 * The organization's profile, as its administrators edit it: name, description (Markdown),
 * icon and logos. Everyone sees a change as soon as it is saved (realm events).
 */
export function OrganizationProfile() {
  const settings = realmSettings.value;
  const liveDescription = (settings.realm_description as string | undefined) ?? '';
  // What the administrator typed; until then the fields follow the organization's values.
  const [name, setName] = useState<string | undefined>(undefined);
  const [description, setDescription] = useState<string | undefined>(undefined);
  const [note, say] = useSavedNote();
  const [error, setError] = useState('');
  const shownName = name ?? realm.value.name;
  const shownDescription = description ?? liveDescription;
  const changed = shownName !== realm.value.name || shownDescription !== liveDescription;
  const save = async (event: Event) => {
    event.preventDefault();
    setError('');
    const params: Params = {};
    if (shownName !== realm.value.name) params.name = shownName;
    if (shownDescription !== liveDescription) params.description = shownDescription;
    try {
      await patch('/json/realm', params);
      setName(undefined);
      setDescription(undefined);
      say('Organization profile saved.');
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <div class="org-page">
      <form onSubmit={save} aria-label="Name and description">
        <Field label="Organization name" required maxLength={40} value={shownName} onValue={setName} />
        <label>
          Organization description
          <textarea maxLength={1000} value={shownDescription} aria-describedby="org-description-hint" onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        <p class="hint" id="org-description-hint">
          Shown to people who are about to join. Markdown formatting works, as in messages.
        </p>
        <FormError text={error} />
        <button type="submit" class="primary" disabled={!changed}>
          Save profile
        </button>
        <SavedNote text={note} />
      </form>
      <div class="org-images">
        {IMAGES.map((image) => (
          <OrganizationImage
            key={image.kind}
            {...image}
            url={settings[`realm_${image.kind}_url`] as string | undefined}
            uploaded={settings[`realm_${image.kind}_source`] === 'U'}
          />
        ))}
      </div>
    </div>
  );
}

type ImageKind = 'icon' | 'logo' | 'night_logo';

const IMAGES: Array<{ kind: ImageKind; title: string; hint: string }> = [
  { kind: 'icon', title: 'Organization icon', hint: "A square picture, shown beside the organization's name." },
  { kind: 'logo', title: 'Logo for the light theme', hint: 'A wide picture, up to 8 times as wide as it is high.' },
  { kind: 'night_logo', title: 'Logo for the dark theme', hint: 'The same logo drawn for a dark background.' },
];

/** One of the organization's pictures: its preview, a file chooser to replace it, and a reset to the default. */
function OrganizationImage({ kind, title, hint, url, uploaded }: { kind: ImageKind; title: string; hint: string; url: string | undefined; uploaded: boolean }) {
  const [busy, setBusy] = useState(false);
  // The default icon comes from Gravatar, which a server without Internet access (a
  // classroom, a laptop on a train) cannot reach: its initial is shown instead of a broken picture.
  const [unreachable, setUnreachable] = useState<string | undefined>(undefined);
  const [error, setError] = useState('');
  const path = kind === 'icon' ? '/json/realm/icon' : '/json/realm/logo';
  const night: Record<string, string> = kind === 'icon' ? {} : { night: String(kind === 'night_logo') };
  const headingId = `org-image-${kind}`;
  const upload = async (file: File) => {
    setBusy(true);
    setError('');
    try {
      await post(path, fileForm(file, night) as unknown as Params);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const reset = async () => {
    const what = kind === 'icon' ? 'icon' : 'logo';
    if (!(await confirmAction(`Delete the ${what}?`, `The organization goes back to the default ${what}.`, `Delete ${what}`))) return;
    try {
      await del(path, night);
    } catch (err) {
      reportError(err);
    }
  };
  const preview =
    kind === 'icon' ? (
      url &&
      (unreachable === url ? (
        <span class="icon-preview icon-initial" role="img" aria-label="The default organization icon">
          {[...realm.value.name.trim()][0]?.toUpperCase() ?? '?'}
        </span>
      ) : (
        <img class="icon-preview" src={url} alt={uploaded ? 'The organization icon' : 'The default organization icon'} onError={() => setUnreachable(url)} />
      ))
    ) : uploaded && url ? (
      <div class={`logo-box${kind === 'night_logo' ? ' night' : ''}`}>
        <img class="logo-preview" src={url} alt={kind === 'night_logo' ? 'The logo for the dark theme' : 'The logo for the light theme'} />
      </div>
    ) : (
      <p class="hint">No logo uploaded: the organization's name is shown instead.</p>
    );
  return (
    <section class="org-image" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <p class="hint">{hint}</p>
      {preview}
      <label>
        {`Upload a new ${kind === 'icon' ? 'icon' : 'logo'}`}
        <span class="visually-hidden">{` (${title})`}</span>
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          disabled={busy}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (file) void upload(file);
          }}
        />
      </label>
      <FormError text={error} />
      {uploaded && (
        <button type="button" class="danger" onClick={reset}>
          {kind === 'icon' ? 'Delete icon' : 'Delete logo'}
          <span class="visually-hidden">{` (${title})`}</span>
        </button>
      )}
    </section>
  );
}
