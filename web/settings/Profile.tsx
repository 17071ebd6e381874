import { useState } from 'preact/hooks';
import { patch, post } from '../api';
import { session, theme, users, type Theme } from '../state';
import { chooseHomeView, homeView, type HomeView } from '../views/home';
import { changeSetting, chooseTheme, notificationSettings, setDesktopNotifications } from '../app/notifications';
import { Avatar } from '../people/Avatar';
import { Field } from '../ui/Field';
import { reportError } from '../ui/Toasts';
import { useFlash } from '../ui/useFlash';

/** Personal settings' profile: name, avatar, and the display and notification choices. */
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
