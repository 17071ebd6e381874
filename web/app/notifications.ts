import { signal } from '@preact/signals';
import { patch } from '../api';
import { isTopicMuted, subscriptions, theme, topicPolicy, TopicPolicy, userSettings, type Theme } from '../state';
import type { Message } from '../types';
import { applyTimeSetting } from '../messages/time';
import { plainTextEmoji } from '../emoji/emoji';
import { applyHomeViewSettings } from '../views/home';

/**
 * The personal settings the web client follows, kept on the server as Zulip keeps them (so
 * they follow the person to another browser): the theme (`color_scheme`), and the
 * notification settings (Zulip's names) that decide which new messages notify and how.
 */

const NOTIFICATION_DEFAULTS = {
  // Direct messages, mentions and alert words.
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_offline_push_notifications: true,
  enable_offline_email_notifications: true,
  // Messages in followed topics.
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_audible_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  // Every message of a channel (each channel may override these).
  enable_stream_desktop_notifications: false,
  enable_stream_audible_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_email_notifications: false,
  wildcard_mentions_notify: true,
  // Whether a desktop notification of a direct message shows its text.
  pm_content_in_desktop_notifications: true,
  // Whether missed-message emails carry the messages' text.
  message_content_in_email_notifications: true,
};

export type NotificationSetting = keyof typeof NOTIFICATION_DEFAULTS;
export type NotificationSettings = Record<NotificationSetting, boolean>;

export const notificationSettings = signal<NotificationSettings>({ ...NOTIFICATION_DEFAULTS });

/** Zulip's color_scheme values: 1 follows the system, 2 dark, 3 light. */
const COLOR_SCHEMES: Record<number, Theme> = { 1: 'auto', 2: 'dark', 3: 'light' };

/** Takes the settings from `user_settings` (register) or one changed setting (a user_settings event). */
export function applyUserSettings(settings: Record<string, unknown>): void {
  userSettings.value = { ...userSettings.value, ...settings };
  if (typeof settings.color_scheme === 'number' && COLOR_SCHEMES[settings.color_scheme]) theme.value = COLOR_SCHEMES[settings.color_scheme];
  applyHomeViewSettings(settings);
  const next = { ...notificationSettings.value };
  for (const name of Object.keys(NOTIFICATION_DEFAULTS) as NotificationSetting[]) {
    if (typeof settings[name] === 'boolean') next[name] = settings[name];
  }
  notificationSettings.value = next;
  applyTimeSetting(settings);
  if (typeof settings.emojiset === 'string') plainTextEmoji.value = settings.emojiset === 'text';
}

/** Changes one setting here at once and on the server; the server's event confirms it. */
export async function changeSetting(name: 'color_scheme' | NotificationSetting, value: number | boolean): Promise<void> {
  const before = { theme: theme.value, notifications: notificationSettings.value };
  applyUserSettings({ [name]: value });
  try {
    await patch('/json/settings', { [name]: value });
  } catch (err) {
    theme.value = before.theme;
    notificationSettings.value = before.notifications;
    throw err;
  }
}

export function chooseTheme(chosen: Theme): Promise<void> {
  const scheme = Number(Object.entries(COLOR_SCHEMES).find(([, t]) => t === chosen)?.[0] ?? 1);
  return changeSetting('color_scheme', scheme);
}

/** Asks the browser's permission to show notifications, if it was never asked. */
export async function askNotificationPermission(): Promise<void> {
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') await Notification.requestPermission();
}

let audio: AudioContext | undefined;

/** A short two-note chime, made here: no sound file to fetch. */
function chime(): void {
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    for (const [offset, frequency] of [
      [0, 880],
      [0.12, 1320],
    ]) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, now + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, now + offset + 0.25);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(now + offset);
      oscillator.stop(now + offset + 0.25);
    }
  } catch {
    // No audio here (or not allowed yet): the notification is enough.
  }
}

/** Whether a channel's own setting, or else the person's default for channels, is on. */
function channelSetting(channelId: number, own: 'desktop_notifications' | 'audible_notifications' | 'wildcard_mentions_notify', fallback: NotificationSetting): boolean {
  return subscriptions.value.get(channelId)?.[own] ?? notificationSettings.value[fallback];
}

/**
 * How a new message should notify, as Zulip's settings decide: direct messages, mentions and
 * alert words by the general settings; @all mentions where the channel (or the followed topic)
 * allows them; followed topics by their own settings; any other message of a channel by the
 * channel's settings (its own, else the person's defaults for channels), unless muted.
 */
export function notificationFor(message: Message, flags: string[]): { desktop: boolean; sound: boolean } {
  const settings = notificationSettings.value;
  const general = { desktop: settings.enable_desktop_notifications, sound: settings.enable_sounds };
  const none = { desktop: false, sound: false };
  if (message.type === 'private' || flags.includes('mentioned') || flags.includes('has_alert_word')) return general;
  if (message.type !== 'stream' || message.stream_id === undefined) return none;
  const channelId = message.stream_id;
  const followed = topicPolicy(channelId, message.subject) === TopicPolicy.followed;
  if (flags.some((f) => f.endsWith('wildcard_mentioned'))) {
    const allowed = followed ? settings.enable_followed_topic_wildcard_mentions_notify : channelSetting(channelId, 'wildcard_mentions_notify', 'wildcard_mentions_notify');
    if (allowed) return general;
  }
  if (followed) return { desktop: settings.enable_followed_topic_desktop_notifications, sound: settings.enable_followed_topic_audible_notifications };
  if (isTopicMuted(channelId, message.subject)) return none;
  return {
    desktop: channelSetting(channelId, 'desktop_notifications', 'enable_stream_desktop_notifications'),
    sound: channelSetting(channelId, 'audible_notifications', 'enable_stream_audible_notifications'),
  };
}

/**
 * Tells the person about a new message their settings ask to hear of (see notificationFor)
 * that they are not looking at: the page is hidden or unfocused, or the message is outside the
 * open view.
 */
export function notifyAbout(message: Message, flags: string[], inView: boolean): void {
  if (flags.includes('read')) return;
  const how = notificationFor(message, flags);
  if (!how.desktop && !how.sound) return;
  if (inView && document.visibilityState === 'visible' && document.hasFocus()) return;
  if (how.sound) chime();
  if (!how.desktop || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const where = message.type === 'stream' ? `#${String(message.display_recipient)} › ${message.subject}` : 'Direct message';
  const text = new DOMParser().parseFromString(message.content, 'text/html').body.textContent ?? '';
  const body = message.type === 'private' && !notificationSettings.value.pm_content_in_desktop_notifications ? 'New direct message' : text.slice(0, 300);
  try {
    const shown = new Notification(`${message.sender_full_name} (${where})`, { body, tag: String(message.id) });
    shown.onclick = () => {
      window.focus();
      shown.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker.
  }
}
