import { useEffect, useState } from 'preact/hooks';
import { del, get, patch, post } from '../api';
import { realm, session, theme, users, type Theme } from '../state';
import { chooseHomeView, homeView, type HomeView } from '../views/home';
import { changeSetting, chooseTheme, notificationSettings, setDesktopNotifications } from '../app/notifications';
import { Avatar } from '../people/Avatar';
import { Field } from '../ui/Field';
import { reportError } from '../ui/Toasts';
import { lazyComponent } from '../ui/lazy';

const MutedUsers = lazyComponent(() => import('../people/dialogs').then((m) => m.MutedUsers));

function Profile() {
  const me = users.value.get(session.value?.user_id ?? 0);
  const [fullName, setFullName] = useState(me?.full_name ?? '');
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [saved, setSaved] = useState('');
  const done = (what: string) => {
    setSaved(what);
    setTimeout(() => setSaved(''), 3000);
  };
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
        <h2>Profile</h2>
        <Field label="Full name" required value={fullName} onValue={setFullName} />
        <button type="submit" class="primary">
          Save name
        </button>
      </form>
      <form>
        <h2>Avatar</h2>
        <Avatar class="avatar large" url={me?.avatar_url} size={100} alt="Your avatar" />
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
      </form>
      <form
        onSubmit={submitting(async () => {
          await patch('/json/settings', { old_password: oldPassword, new_password: newPassword });
          setOldPassword('');
          setNewPassword('');
        }, 'Password changed.')}
      >
        <h2>Password</h2>
        <Field label="Current password" type="password" autoComplete="current-password" required value={oldPassword} onValue={setOldPassword} />
        <Field label="New password" type="password" autoComplete="new-password" required value={newPassword} onValue={setNewPassword} />
        <button type="submit" class="primary">
          Change password
        </button>
      </form>
      <fieldset>
        <legend>Theme</legend>
        {(['auto', 'light', 'dark'] as Theme[]).map((t) => (
          <label class="inline" key={t}>
            <input type="radio" name="theme" checked={theme.value === t} onChange={() => chooseTheme(t).catch(reportError)} />{' '}
            {t === 'auto' ? 'Follow the system' : t === 'light' ? 'Light' : 'Dark'}
          </label>
        ))}
      </fieldset>
      <label>
        Home view{' '}
        <select value={homeView.value} onChange={(e) => chooseHomeView(e.currentTarget.value as HomeView).catch(reportError)}>
          <option value="inbox">Inbox</option>
          <option value="recent">Recent conversations</option>
          <option value="all_messages">Combined feed</option>
        </select>
      </label>
      <fieldset>
        <legend>Notifications of direct messages and mentions</legend>
        <label class="inline">
          <input
            type="checkbox"
            checked={notificationSettings.value.enable_desktop_notifications}
            onChange={(e) => setDesktopNotifications(e.currentTarget.checked).catch(reportError)}
          />{' '}
          Desktop notifications
        </label>
        {notificationSettings.value.enable_desktop_notifications && typeof Notification !== 'undefined' && Notification.permission === 'denied' && (
          <p class="hint">This browser blocks notifications from this site; allow them in its site settings.</p>
        )}
        <label class="inline">
          <input type="checkbox" checked={notificationSettings.value.enable_sounds} onChange={(e) => changeSetting('enable_sounds', e.currentTarget.checked).catch(reportError)} />{' '}
          Sound
        </label>
      </fieldset>
      <p role="status">{saved}</p>
    </>
  );
}

const ROLES: Array<[number, string]> = [
  [100, 'Owner'],
  [200, 'Administrator'],
  [300, 'Moderator'],
  [400, 'Member'],
  [600, 'Guest'],
];

interface Invite {
  id: number;
  link_url?: string;
  expiry_date?: number | null;
  is_multiuse?: boolean;
}

function Invitations() {
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [error, setError] = useState('');
  const load = () =>
    get<{ invites: Invite[] }>('/json/invites').then(
      (answer) => setInvites(answer.invites.filter((i) => i.is_multiuse !== false)),
      (err: Error) => setError(err.message),
    );
  useEffect(() => {
    void load();
  }, []);
  return (
    <section aria-label="Invitation links">
      <h2>Invitation links</h2>
      {error && <p>{error}</p>}
      <button
        type="button"
        class="primary"
        onClick={async () => {
          try {
            await post('/json/invites/multiuse', { invite_expires_in_minutes: 60 * 24 * 7, invite_as: 400 });
            await load();
          } catch (err) {
            reportError(err);
          }
        }}
      >
        Create an invitation link
      </button>
      <ul class="invite-list">
        {(invites ?? []).map((invite) => (
          <li key={invite.id}>
            <input readOnly aria-label="Invitation link" value={invite.link_url ?? ''} onFocus={(e) => e.currentTarget.select()} />
            <button
              type="button"
              onClick={async () => {
                try {
                  await del(`/json/invites/multiuse/${invite.id}`);
                  await load();
                } catch (err) {
                  reportError(err);
                }
              }}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Organization() {
  const [name, setName] = useState(realm.value.name);
  // Deactivating is asked first, in the row (no browser dialog).
  const [confirming, setConfirming] = useState<number | null>(null);
  const self = session.value?.user_id;
  const people = [...users.value.values()].filter((u) => !u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <>
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
        <h2>Organization</h2>
        <Field label="Organization name" required maxLength={40} value={name} onValue={setName} />
        <button type="submit" class="primary">
          Save
        </button>
      </form>
      <Invitations />
      <section aria-label="Users">
        <h2>Users</h2>
        <table class="users-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Account</th>
            </tr>
          </thead>
          <tbody>
            {people.map((user) => (
              <tr key={user.user_id}>
                <td>{user.full_name}</td>
                <td>{user.email}</td>
                <td>
                  <select
                    aria-label={`Role of ${user.full_name}`}
                    value={user.role}
                    disabled={user.user_id === self || (user.role === 100 && !realm.value.isOwner)}
                    onChange={(e) => patch(`/json/users/${user.user_id}`, { role: Number(e.currentTarget.value) }).catch(reportError)}
                  >
                    {ROLES.filter(([role]) => role !== 100 || realm.value.isOwner).map(([role, label]) => (
                      <option key={role} value={role}>
                        {label}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {user.user_id === self ? (
                    'You'
                  ) : user.is_active && confirming === user.user_id ? (
                    <span role="group" aria-label={`Deactivate ${user.full_name}?`}>
                      <button
                        type="button"
                        class="danger"
                        onClick={() => {
                          setConfirming(null);
                          del(`/json/users/${user.user_id}`).catch(reportError);
                        }}
                      >
                        Yes, deactivate
                      </button>{' '}
                      <button type="button" onClick={() => setConfirming(null)}>
                        Cancel
                      </button>
                    </span>
                  ) : user.is_active ? (
                    <button type="button" aria-label={`Deactivate ${user.full_name}`} onClick={() => setConfirming(user.user_id)}>
                      Deactivate
                    </button>
                  ) : (
                    <button type="button" aria-label={`Reactivate ${user.full_name}`} onClick={() => post(`/json/users/${user.user_id}/reactivate`).catch(reportError)}>
                      Reactivate
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

/** Personal settings, and the organization's for administrators. */
export function Settings({ section }: { section: string }) {
  const admin = section === 'organization' && realm.value.isAdmin;
  const muted = !admin && section === 'muted-users';
  return (
    <div class="panel settings" role="region" aria-labelledby="settings-title">
      <h1 class="view-title" id="settings-title">
        {admin ? 'Organization settings' : 'Personal settings'}
      </h1>
      <nav class="tabs" aria-label="Settings sections">
        <a href="#settings/profile" aria-current={!admin && !muted ? 'page' : undefined}>
          Personal
        </a>
        <a href="#settings/muted-users" aria-current={muted ? 'page' : undefined}>
          Muted users
        </a>
        {realm.value.isAdmin && (
          <a href="#organization" aria-current={admin ? 'page' : undefined}>
            Organization
          </a>
        )}
      </nav>
      {admin ? <Organization /> : muted ? <MutedUsers /> : <Profile />}
    </div>
  );
}
