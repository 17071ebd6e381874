import { patch } from '../api';
import { chooseTheme } from '../app/notifications';
import { plainTextEmoji } from '../emoji/emoji';
import { twentyFourHourTime } from '../messages/time';
import { session, theme, users, type Theme } from '../state';
import { reportError } from '../ui/Toasts';
import { chooseHomeView, escapeGoesHome, homeView, type HomeView } from '../views/home';

/**
 * Personal settings' preferences: the display and behaviour choices this client follows (theme,
 * clock, time zone, emoji, home view), each saved on the server as soon as it is chosen, and
 * shown at once (the server's event confirms it).
 */

/** This browser's time zone, and every IANA zone it knows. */
const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const ZONES: string[] = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [BROWSER_ZONE];

/** Sets a signal here at once and the setting on the server; the signal goes back if refused. */
function optimistic<T>(target: { value: T }, value: T, setting: string, sent: unknown = value): void {
  const before = target.value;
  target.value = value;
  patch('/json/settings', { [setting]: sent }).catch((err: unknown) => {
    target.value = before;
    reportError(err);
  });
}

export function Preferences() {
  const me = users.value.get(session.value?.user_id ?? 0);
  const zone = me?.timezone ?? '';
  const zones = zone && !ZONES.includes(zone) ? [zone, ...ZONES] : ZONES;
  const saveZone = (value: string) => patch('/json/settings', { timezone: value }).catch(reportError);
  // Zulip's clock setting is a boolean here; a locale's own choice shows as its value.
  const twentyFour = twentyFourHourTime.value ?? !new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).resolvedOptions().hour12;
  return (
    <div class="preferences">
      <fieldset>
        <legend>Theme</legend>
        {(['auto', 'light', 'dark'] as Theme[]).map((t) => (
          <label class="inline" key={t}>
            <input type="radio" name="theme" checked={theme.value === t} onChange={() => chooseTheme(t).catch(reportError)} />{' '}
            {t === 'auto' ? 'Follow the system' : t === 'light' ? 'Light' : 'Dark'}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Time</legend>
        <label>
          Time format
          <select value={twentyFour ? '24' : '12'} onChange={(e) => optimistic(twentyFourHourTime, e.currentTarget.value === '24', 'twenty_four_hour_time')}>
            <option value="12">12-hour (5:00 PM)</option>
            <option value="24">24-hour (17:00)</option>
          </select>
        </label>
        <label>
          Time zone
          <select value={zone} aria-describedby="time-zone-hint" onChange={(e) => saveZone(e.currentTarget.value)}>
            <option value="">Not set</option>
            {zones.map((z) => (
              <option key={z} value={z}>
                {z.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <p class="hint" id="time-zone-hint">
          Others see your local time on your profile.
        </p>
        {zone !== BROWSER_ZONE && (
          <button type="button" onClick={() => saveZone(BROWSER_ZONE)}>
            Use this browser's time zone ({BROWSER_ZONE.replaceAll('_', ' ')})
          </button>
        )}
      </fieldset>
      <fieldset>
        <legend>Emoji</legend>
        {[
          { set: 'google', label: 'This device’s emoji', sample: '😀 🎉' },
          { set: 'text', label: 'Plain text', sample: ':smile: :tada:' },
        ].map(({ set, label, sample }) => (
          <label class="inline" key={set}>
            <input type="radio" name="emojiset" checked={plainTextEmoji.value === (set === 'text')} onChange={() => optimistic(plainTextEmoji, set === 'text', 'emojiset', set)} />{' '}
            {label} <span class="emoji-sample" aria-hidden="true">{sample}</span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Navigation</legend>
        <label>
          Home view
          <select value={homeView.value} onChange={(e) => chooseHomeView(e.currentTarget.value as HomeView).catch(reportError)}>
            <option value="inbox">Inbox</option>
            <option value="recent">Recent conversations</option>
            <option value="all_messages">Combined feed</option>
          </select>
        </label>
        <label class="inline">
          <input type="checkbox" checked={escapeGoesHome.value} onChange={(e) => optimistic(escapeGoesHome, e.currentTarget.checked, 'web_escape_navigates_to_home_view')} /> Escape
          goes to the home view
        </label>
      </fieldset>
    </div>
  );
}
