import { post } from '../api';
import { askNotificationPermission, changeSetting, notificationSettings, type NotificationSetting } from '../app/notifications';
import { subscriptions } from '../state';
import type { Subscription } from '../types';
import { reportError } from '../ui/Toasts';

/**
 * Personal settings' notifications: which messages notify, and how (a desktop notification, a
 * sound, a push to the phone), for direct messages, mentions and alert words, followed topics,
 * and channels, with each channel's own overrides. Only what this client and this server act
 * on is offered: the server sends no message emails, so there are no email settings.
 */

type Column = 'desktop' | 'sound' | 'mobile' | 'wildcard';

const COLUMNS: Array<{ id: Column; label: string }> = [
  { id: 'desktop', label: 'Desktop' },
  { id: 'sound', label: 'Sound' },
  { id: 'mobile', label: 'Mobile' },
  { id: 'wildcard', label: '@all mentions' },
];

const TRIGGERS: Array<{ label: string; settings: Partial<Record<Column, NotificationSetting>> }> = [
  {
    label: 'Direct messages, mentions and alert words',
    settings: { desktop: 'enable_desktop_notifications', sound: 'enable_sounds', mobile: 'enable_offline_push_notifications' },
  },
  {
    label: 'Followed topics',
    settings: {
      desktop: 'enable_followed_topic_desktop_notifications',
      sound: 'enable_followed_topic_audible_notifications',
      mobile: 'enable_followed_topic_push_notifications',
      wildcard: 'enable_followed_topic_wildcard_mentions_notify',
    },
  },
  {
    label: 'Channels',
    settings: {
      desktop: 'enable_stream_desktop_notifications',
      sound: 'enable_stream_audible_notifications',
      mobile: 'enable_stream_push_notifications',
      wildcard: 'wildcard_mentions_notify',
    },
  },
];

/** A channel's own settings, and the person's setting each falls back to. */
const CHANNEL_COLUMNS: Array<{ id: Column; property: keyof Subscription; fallback: NotificationSetting }> = [
  { id: 'desktop', property: 'desktop_notifications', fallback: 'enable_stream_desktop_notifications' },
  { id: 'sound', property: 'audible_notifications', fallback: 'enable_stream_audible_notifications' },
  { id: 'mobile', property: 'push_notifications', fallback: 'enable_stream_push_notifications' },
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

export function Notifications() {
  const settings = notificationSettings.value;
  const blocked = typeof Notification !== 'undefined' && Notification.permission === 'denied';
  const channels = [...subscriptions.value.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div class="notification-settings">
      <table class="settings-table">
        <caption>Notify me of</caption>
        <thead>
          <tr>
            <td />
            {COLUMNS.map((c) => (
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
              {COLUMNS.map((c) => {
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

      <h3 id="channel-notifications">Channels</h3>
      <p class="hint">Each channel follows your settings for channels unless you change it here.</p>
      {channels.length === 0 ? (
        <p>You are not subscribed to any channel.</p>
      ) : (
        <table class="settings-table" aria-labelledby="channel-notifications">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              {CHANNEL_COLUMNS.map((c) => (
                <th scope="col" key={c.id}>
                  {columnLabel(c.id)}
                </th>
              ))}
              <td />
            </tr>
          </thead>
          <tbody>
            {channels.map((sub) => {
              const overridden = CHANNEL_COLUMNS.filter((c) => typeof sub[c.property] === 'boolean' && sub[c.property] !== settings[c.fallback]);
              return (
                <tr key={sub.stream_id}>
                  <th scope="row">
                    <span class="channel-swatch-dot" style={{ background: sub.color }} aria-hidden="true" />#{sub.name}
                  </th>
                  {CHANNEL_COLUMNS.map((c) => (
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
