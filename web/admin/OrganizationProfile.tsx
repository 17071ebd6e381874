import { useState } from 'preact/hooks';
import { patch } from '../api';
import { realm } from '../state';
import { Field } from '../ui/Field';
import { reportError } from '../ui/Toasts';

/** The organization's profile, as its administrators edit it. */
export function OrganizationProfile() {
  const [name, setName] = useState(realm.value.name);
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          await patch('/json/realm', { name });
        } catch (err) {
          reportError(err);
        }
      }}
    >
      <Field label="Organization name" required maxLength={40} value={name} onValue={setName} />
      <button type="submit" class="primary">
        Save
      </button>
    </form>
  );
}
