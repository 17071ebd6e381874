import { useState } from 'preact/hooks';
import { del, DEACTIVATED_LOGIN, patch, post } from '../api';
import { realmSettings } from '../channels/state';
import { realm, session, userSettings, users } from '../state';
import { confirmAction } from '../ui/Confirm';
import { useOutgoingEmail } from './useOutgoingEmail';
import { Field } from '../ui/Field';
import { reportError } from '../ui/Toasts';
import { useFlash } from '../ui/useFlash';

/** Zulip's choices of who may see one's real email address (`email_address_visibility`). */
const EMAIL_VISIBILITY: Array<[number, string]> = [
  [1, 'Everyone'],
  [2, 'Members only'],
  [5, 'Moderators and administrators'],
  [3, 'Administrators only'],
  [4, 'Nobody'],
];

/** The privacy switches Zulip keeps on this page, each one user setting. */
const PRIVACY_SWITCHES: Array<[string, string]> = [
  ['send_private_typing_notifications', 'Let recipients see when I am typing direct messages'],
  ['send_stream_typing_notifications', 'Let others see when I am typing in channels'],
  ['send_read_receipts', 'Let others see when I have read their messages'],
  ['presence_enabled', 'Show others when I am available'],
];

/** Changes one user setting here at once and on the server; a refusal puts it back. */
async function changeSetting(name: string, value: unknown): Promise<void> {
  const before = userSettings.value;
  userSettings.value = { ...before, [name]: value };
  try {
    await patch('/json/settings', { [name]: value });
  } catch (err) {
    userSettings.value = before;
    reportError(err);
  }
}

/** A form's submit handler that shows the server's refusal in the form instead of a toast. */
function submitting(change: () => Promise<void>, setError: (text: string) => void) {
  return async (event: Event) => {
    event.preventDefault();
    setError('');
    try {
      await change();
    } catch (err) {
      setError((err as Error).message);
    }
  };
}

/** Personal settings' account and privacy: email, password, privacy, and the API key. */
export function Account() {
  const [said, say] = useFlash();
  return (
    <div class="account-settings">
      <section aria-labelledby="account-heading">
        <h3 id="account-heading">Account</h3>
        <EmailChange />
        <PasswordChange say={say} />
        <p role="status" class="settings-status">
          {said}
        </p>
      </section>
      <Privacy />
      <ApiKey />
      <DeactivateAccount />
    </div>
  );
}

/**
 * One's email address, and a change of it: the server sends a confirmation link to the new
 * address, and the change happens when it is followed (as on Zulip). Offered only where the
 * server sends mail, and where the organization lets the person change it (administrators
 * always may).
 */
function EmailChange() {
  const email = session.value?.email ?? '';
  const mail = useOutgoingEmail();
  const forbidden = realmSettings.value.realm_email_changes_disabled === true && !realm.value.isAdmin;
  const [editing, setEditing] = useState(false);
  const [newEmail, setNewEmail] = useState('');
  const [sentTo, setSentTo] = useState('');
  const [error, setError] = useState('');
  if (!editing) {
    return (
      <>
        <p class="account-row">
          <span class="account-label">Email</span> <span class="account-value">{email}</span>{' '}
          {mail && !forbidden && (
            <button type="button" onClick={() => (setNewEmail(email), setError(''), setEditing(true))}>
              Change email
            </button>
          )}
        </p>
        {mail && forbidden && <p class="settings-hint">Email address changes are disabled in this organization. An administrator can change your email.</p>}
        {sentTo && (
          <p class="settings-hint" role="status">
            A confirmation link was sent to {sentTo}. Your email changes when you open it (it works for a day); until then you keep using {email}.
          </p>
        )}
      </>
    );
  }
  return (
    <form
      aria-label="Change your email"
      onSubmit={submitting(async () => {
        const address = newEmail.trim();
        await patch('/json/settings', { email: address });
        setEditing(false);
        setSentTo(address === email ? '' : address);
      }, setError)}
    >
      <Field label="New email" type="email" autoComplete="email" required value={newEmail} onValue={setNewEmail} />
      {error && <p class="form-error">{error}</p>}
      <div class="button-row">
        <button type="submit" class="primary">
          Send confirmation
        </button>
        <button type="button" onClick={() => (setEditing(false), setError(''))}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * A new password, given with the current one; an account without a password (signed in
 * through the development login, or moved from another server) sets its first one.
 */
function PasswordChange({ say }: { say: (text: string) => void }) {
  const hasPassword = session.value?.hasPassword ?? true;
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [error, setError] = useState('');
  return (
    <form
      aria-label={hasPassword ? 'Change your password' : 'Set a password'}
      onSubmit={submitting(async () => {
        await patch('/json/settings', hasPassword ? { old_password: oldPassword, new_password: newPassword } : { new_password: newPassword });
        setOldPassword('');
        setNewPassword('');
        if (session.value) session.value = { ...session.value, hasPassword: true };
        say(hasPassword ? 'Password changed.' : 'Password set.');
      }, setError)}
    >
      <h4>Password</h4>
      {hasPassword ? (
        <Field label="Current password" type="password" autoComplete="current-password" required value={oldPassword} onValue={setOldPassword} />
      ) : (
        <p class="settings-hint">Your account has no password yet. Set one to log in with your email, from the apps too.</p>
      )}
      <Field label="New password" type="password" autoComplete="new-password" required minLength={6} value={newPassword} onValue={setNewPassword} />
      {error && <p class="form-error">{error}</p>}
      <button type="submit" class="primary">
        {hasPassword ? 'Change password' : 'Set password'}
      </button>
    </form>
  );
}

function Privacy() {
  const settings = userSettings.value;
  return (
    <section aria-labelledby="privacy-heading">
      <h3 id="privacy-heading">Privacy</h3>
      {PRIVACY_SWITCHES.map(([name, label]) => (
        <label class="inline settings-switch" key={name}>
          <input type="checkbox" checked={settings[name] !== false} onChange={(e) => changeSetting(name, e.currentTarget.checked)} /> {label}
        </label>
      ))}
      <label>
        Who can see your email address{' '}
        <select value={Number(settings.email_address_visibility ?? 1)} onChange={(e) => changeSetting('email_address_visibility', Number(e.currentTarget.value))}>
          {EMAIL_VISIBILITY.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}

/** A zuliprc file for the key, as Zulip's API bindings and tools read it. */
function zuliprc(email: string, key: string): string {
  return `[api]\nemail=${email}\nkey=${key}\nsite=${location.origin}\n`;
}

/** One's API key: shown only after the password is given again, and made anew on request. */
function ApiKey() {
  const me = session.value;
  const [password, setPassword] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const [error, setError] = useState('');
  return (
    <section aria-labelledby="api-key-heading">
      <h3 id="api-key-heading">API key</h3>
      <p class="settings-hint">
        An API key lets programs use your account: read your messages and send as you. Keep it as safe as your password; for a program of your own, a bot is
        the better choice.
      </p>
      {key !== null ? (
        <div class="api-key">
          <label>
            Your API key
            <input readOnly class="mono" value={key} onFocus={(e) => e.currentTarget.select()} />
          </label>
          <div class="button-row">
            <a class="button" download="zuliprc" href={`data:text/plain;charset=utf-8,${encodeURIComponent(zuliprc(me?.email ?? '', key))}`}>
              Download zuliprc
            </a>
            <button
              type="button"
              onClick={async () => {
                try {
                  setKey((await post<{ api_key: string }>('/json/users/me/api_key/regenerate')).api_key);
                } catch (err) {
                  reportError(err);
                }
              }}
            >
              Generate a new API key
            </button>
            <button type="button" onClick={() => setKey(null)}>
              Hide
            </button>
          </div>
        </div>
      ) : me?.hasPassword === false ? (
        <p class="settings-hint">Set a password above first: your API key is shown after you enter it.</p>
      ) : (
        <form
          aria-label="Show your API key"
          onSubmit={submitting(async () => {
            const answer = await post<{ api_key: string }>('/json/fetch_api_key', { username: me?.email ?? '', password });
            setPassword('');
            setKey(answer.api_key);
          }, setError)}
        >
          <Field label="Your password" type="password" autoComplete="current-password" required value={password} onValue={setPassword} />
          {error && <p class="form-error">{error}</p>}
          <button type="submit">Show API key</button>
        </form>
      )}
    </section>
  );
}

/** Whether one is the organization's only active owner, whom Zulip does not let leave. */
function onlyOwner(): boolean {
  if (!realm.value.isOwner) return false;
  const owners = [...users.value.values()].filter((u) => u.is_active && !u.is_bot && u.role === 100);
  return owners.length <= 1;
}

/**
 * Deactivating one's own account (DELETE /users/me), after asking: the account can no longer
 * log in, its bots stop, and an administrator can reactivate it. The page then leaves for the
 * login page, which says what happened.
 */
function DeactivateAccount() {
  const [error, setError] = useState('');
  const last = onlyOwner();
  const deactivate = async () => {
    setError('');
    const sure = await confirmAction(
      'Deactivate your account?',
      'You will be logged out at once and will not be able to log in again. Your messages stay. Only an administrator of the organization can reactivate your account.',
      'Deactivate my account',
    );
    if (!sure) return;
    try {
      await del('/json/users/me');
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    location.assign(DEACTIVATED_LOGIN);
  };
  return (
    <section aria-labelledby="deactivate-heading">
      <h3 id="deactivate-heading">Deactivate account</h3>
      {last ? (
        <p class="settings-hint" id="deactivate-hint">
          You are the organization’s only owner, so you cannot deactivate your account. Make someone else an owner first.
        </p>
      ) : (
        <p class="settings-hint" id="deactivate-hint">
          Deactivating your account logs you out everywhere; your bots stop too.
        </p>
      )}
      {error && <p class="form-error">{error}</p>}
      <button type="button" class="danger" disabled={last} aria-describedby="deactivate-hint" onClick={deactivate}>
        Deactivate account
      </button>
    </section>
  );
}
