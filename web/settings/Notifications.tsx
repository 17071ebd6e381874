import { patch, post } from '../api';
import { askNotificationPermission, changeSetting, notificationSettings, type NotificationSetting } from '../app/notifications';
import { subscriptions, userSettings } from '../state';
import type { Subscription } from '../types';
import { reportError } from '../ui/Toasts';
import { useOutgoingEmail } from './useOutgoingEmail';

/**
 * Personal settings' notifications: which messages notify, and how (a desktop notification, a
 * sound, a push to the phone), for direct messages, mentions and alert words, followed topics,
 * an email, and channels, with each channel's own overrides. Only what this client and this
 * server act on is offered: email settings where the server sends mail.
 */

type Column = 'desktop' | 'sound' | 'mobile' | 'email' | 'wildcard';

const COLUMNS: Array<{ id: Column; label: string }> = [
  { id: 'desktop', label: 'Desktop' },
  { id: 'sound', label: 'Sound' },
  { id: 'mobile', label: 'Mobile' },
  { id: 'email', label: 'Email' },
  { id: 'wildcard', label: '@all mentions' },
];

/** How long missed messages wait to be mailed together (Zulip's choices, in seconds). */
const BATCHING_PERIODS: Array<[number, string]> = [
  [120, '2 minutes'],
  [300, '5 minutes'],
  [600, '10 minutes'],
  [1800, '30 minutes'],
  [3600, '1 hour'],
  [21600, '6 hours'],
  [86400, '1 day'],
  [259200, '3 days'],
  [604800, '1 week'],
];

/** Whether an email's subject names the organization (Zulip's realm_name_in_email_notifications_policy). */
const ORGANIZATION_NAME_POLICIES: Array<[number, string]> = [
  [1, 'When I belong to more than one organization on this server'],
  [2, 'Always'],
  [3, 'Never'],
];

const TRIGGERS: Array<{ label: string; settings: Partial<Record<Column, NotificationSetting>> }> = [
  {
    label: 'Direct messages, mentions and alert words',
    settings: {
      desktop: 'enable_desktop_notifications',
      sound: 'enable_sounds',
      mobile: 'enable_offline_push_notifications',
      email: 'enable_offline_email_notifications',
    },
  },
  {
    label: 'Followed topics',
    settings: {
      desktop: 'enable_followed_topic_desktop_notifications',
      sound: 'enable_followed_topic_audible_notifications',
      mobile: 'enable_followed_topic_push_notifications',
      email: 'enable_followed_topic_email_notifications',
      wildcard: 'enable_followed_topic_wildcard_mentions_notify',
    },
  },
  {
    label: 'Channels',
    settings: {
      desktop: 'enable_stream_desktop_notifications',
      sound: 'enable_stream_audible_notifications',
      mobile: 'enable_stream_push_notifications',
      email: 'enable_stream_email_notifications',
      wildcard: 'wildcard_mentions_notify',
    },
  },
];

/** A channel's own settings, and the person's setting each falls back to. */
const CHANNEL_COLUMNS: Array<{ id: Column; property: keyof Subscription; fallback: NotificationSetting }> = [
  { id: 'desktop', property: 'desktop_notifications', fallback: 'enable_stream_desktop_notifications' },
  { id: 'sound', property: 'audible_notifications', fallback: 'enable_stream_audible_notifications' },
  { id: 'mobile', property: 'push_notifications', fallback: 'enable_stream_push_notifications' },
  { id: 'email', property: 'email_notifications', fallback: 'enable_stream_email_notifications' },
  { id: 'wildcard', property: 'wildcard_mentions_notify', fallback: 'wildcard_mentions_notify' },
];

async function turn(setting: NotificationSetting, on: boolean): Promise<void> {
  if (on && setting.includes('desktop')) await askNotificationPermission();
  await changeSetting(setting, on);
}

function setChannel(channelId: number, property: keyof Subscription, value: boolean): void {
  if (value && property === 'desktop_notifications') void askNotificationPermission();
  post('/json/users/me/subscriptions/properties', { subscription_data: [{ stream_id: channelId, property, value }] }).catch(reportError);
}

function columnLabel(id: Column): string {
  return COLUMNS.find((c) => c.id === id)!.label;
}

/** A numeric setting of the person's, changed on the server; the user_settings event brings it back. */
function changeNumber(name: string, value: number): void {
  patch('/json/settings', { [name]: value }).catch(reportError);
}

/** When missed-message emails go out, and what they show. */
function EmailSettings() {
  const settings = notificationSettings.value;
  const own = userSettings.value;
  return (
    <fieldset class="email-settings">
      <legend>Emails of missed messages</legend>
      <label>
        Wait before mailing, to gather messages into one email{' '}
        <select value={Number(own.email_notifications_batching_period_seconds ?? 120)} onChange={(e) => changeNumber('email_notifications_batching_period_seconds', Number(e.currentTarget.value))}>
          {BATCHING_PERIODS.map(([seconds, label]) => (
            <option key={seconds} value={seconds}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Name the organization in the subject{' '}
        <select value={Number(own.realm_name_in_email_notifications_policy ?? 1)} onChange={(e) => changeNumber('realm_name_in_email_notifications_policy', Number(e.currentTarget.value))}>
          {ORGANIZATION_NAME_POLICIES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label class="inline">
        <input
          type="checkbox"
          checked={settings.message_content_in_email_notifications}
          onChange={(e) => turn('message_content_in_email_notifications', e.currentTarget.checked).catch(reportError)}
        />{' '}
        Include the messages' text in emails
      </label>
    </fieldset>
  );
}

export function Notifications() {
  const settings = notificationSettings.value;
  const blocked = typeof Notification !== 'undefined' && Notification.permission === 'denied';
  const channels = [...subscriptions.value.values()].sort((a, b) => a.name.localeCompare(b.name));
  // Email columns only where the server sends mail.
  const mails = useOutgoingEmail() === true;
  const columns = COLUMNS.filter((c) => mails || c.id !== 'email');
  const channelColumns = CHANNEL_COLUMNS.filter((c) => mails || c.id !== 'email');
  return (
    <div class="notification-settings">
      <table class="settings-table">
        <caption>Notify me of</caption>
        <thead>
          <tr>
            <td />
            {columns.map((c) => (
              <th scope="col" key={c.id}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {TRIGGERS.map((trigger) => (
            <tr key={trigger.label}>
              <th scope="row">{trigger.label}</th>
              {columns.map((c) => {
                const setting = trigger.settings[c.id];
                return (
                  <td key={c.id}>
                    {setting && (
                      <input
                        type="checkbox"
                        aria-label={`${c.label}: ${trigger.label}`}
                        checked={settings[setting]}
                        onChange={(e) => turn(setting, e.currentTarget.checked).catch(reportError)}
                      />
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {blocked && <p class="hint">This browser blocks notifications from this site; allow them in its site settings.</p>}
      <label class="inline">
        <input
          type="checkbox"
          checked={settings.pm_content_in_desktop_notifications}
          onChange={(e) => turn('pm_content_in_desktop_notifications', e.currentTarget.checked).catch(reportError)}
        />{' '}
        Show the text of direct messages in desktop notifications
      </label>
      {mails && <EmailSettings />}

      <h3 id="channel-notifications">Channels</h3>
      <p class="hint">Each channel follows your settings for channels unless you change it here.</p>
      {channels.length === 0 ? (
        <p>You are not subscribed to any channel.</p>
      ) : (
        <table class="settings-table" aria-labelledby="channel-notifications">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              {channelColumns.map((c) => (
                <th scope="col" key={c.id}>
                  {columnLabel(c.id)}
                </th>
              ))}
              <td />
            </tr>
          </thead>
          <tbody>
            {channels.map((sub) => {
              const overridden = channelColumns.filter((c) => typeof sub[c.property] === 'boolean' && sub[c.property] !== settings[c.fallback]);
              return (
                <tr key={sub.stream_id}>
                  <th scope="row">
                    <span class="channel-swatch-dot" style={{ background: sub.color }} aria-hidden="true" />#{sub.name}
                  </th>
                  {channelColumns.map((c) => (
                    <td key={c.id}>
                      <input
                        type="checkbox"
                        aria-label={`${columnLabel(c.id)}: #${sub.name}`}
                        checked={(sub[c.property] as boolean | null | undefined) ?? settings[c.fallback]}
                        onChange={(e) => setChannel(sub.stream_id, c.property, e.currentTarget.checked)}
                      />
                    </td>
                  ))}
                  <td>
                    {overridden.length > 0 && (
                      <button type="button" class="link-button" onClick={() => overridden.forEach((c) => setChannel(sub.stream_id, c.property, settings[c.fallback]))}>
                        Reset<span class="visually-hidden"> #{sub.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
