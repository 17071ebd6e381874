import { signal } from '@preact/signals';
import { patch } from '../api';
import { theme, userSettings, type Theme } from '../state';
import type { Message } from '../types';
import { applyTimeSetting } from '../messages/time';
import { applyHomeViewSettings } from '../views/home';

/**
 * The personal settings the web client follows, kept on the server as Zulip keeps them (so
 * they follow the person to another browser): the theme (`color_scheme`), and the basics of
 * notifications (`enable_desktop_notifications`, `enable_sounds`) for direct messages and
 * mentions.
 */

export interface NotificationSettings {
  enable_desktop_notifications: boolean;
  enable_sounds: boolean;
}

export const notificationSettings = signal<NotificationSettings>({ enable_desktop_notifications: true, enable_sounds: true });

/** Zulip's color_scheme values: 1 follows the system, 2 dark, 3 light. */
const COLOR_SCHEMES: Record<number, Theme> = { 1: 'auto', 2: 'dark', 3: 'light' };

/** Takes the settings from `user_settings` (register) or one changed setting (a user_settings event). */
export function applyUserSettings(settings: Record<string, unknown>): void {
  userSettings.value = { ...userSettings.value, ...settings };
  if (typeof settings.color_scheme === 'number' && COLOR_SCHEMES[settings.color_scheme]) theme.value = COLOR_SCHEMES[settings.color_scheme];
  applyHomeViewSettings(settings);
  const next = { ...notificationSettings.value };
  for (const name of ['enable_desktop_notifications', 'enable_sounds'] as const) {
    if (typeof settings[name] === 'boolean') next[name] = settings[name];
  }
  notificationSettings.value = next;
  applyTimeSetting(settings);
}

/** Changes one setting here at once and on the server; the server's event confirms it. */
export async function changeSetting(name: 'color_scheme' | keyof NotificationSettings, value: number | boolean): Promise<void> {
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

/** Turns desktop notifications on or off; turning them on asks the browser's permission first. */
export async function setDesktopNotifications(on: boolean): Promise<void> {
  if (on && typeof Notification !== 'undefined' && Notification.permission === 'default') await Notification.requestPermission();
  await changeSetting('enable_desktop_notifications', on);
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

/**
 * Tells the person about a new direct message or mention they are not looking at (the page is
 * hidden or unfocused, or the message is outside the open view), as Zulip's defaults do.
 */
export function notifyAbout(message: Message, flags: string[], inView: boolean): void {
  const personal = message.type === 'private' || flags.some((f) => f === 'mentioned' || f.endsWith('wildcard_mentioned'));
  if (!personal || flags.includes('read')) return;
  if (inView && document.visibilityState === 'visible' && document.hasFocus()) return;
  const settings = notificationSettings.value;
  if (settings.enable_sounds) chime();
  if (!settings.enable_desktop_notifications || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const where = message.type === 'stream' ? `#${String(message.display_recipient)} › ${message.subject}` : 'Direct message';
  const body = new DOMParser().parseFromString(message.content, 'text/html').body.textContent ?? '';
  try {
    const shown = new Notification(`${message.sender_full_name} (${where})`, { body: body.slice(0, 300), tag: String(message.id) });
    shown.onclick = () => {
      window.focus();
      shown.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker.
  }
}
