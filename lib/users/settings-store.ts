import type { StateContext } from '../events/state-context';
import { presenceEnabledChanged } from '../presence/actions';
import { forgetDrafts } from '../drafts/actions';
import { sendEvent, write } from '../events/send';
import { revokeSessions } from '../sessions/actions';
import type { Stoa } from '../stoa';
import { apiEmailFor } from './actions';
import { usersWhoCanAccess } from './access';
import { canSeeDeliveryEmail } from './email-visibility';
import type { UserRow } from './queries';
import {
  NOT_ORGANIZATION_DEFAULTS,
  USER_SETTINGS,
  USER_SETTINGS_BY_NAME,
  USER_SETTINGS_EXTRAS,
} from './settings';

export type SettingValue = boolean | number | string | null;

/** All of a user's settings: the defaults, overridden by what they changed. */
export function userSettings(stoa: Stoa, user: UserRow): Record<string, SettingValue> {
  const settings: Record<string, SettingValue> = {};
  for (const def of USER_SETTINGS) settings[def.name] = def.default;
  for (const { name, value } of stoa.users.settingOverrides(user.id)) {
    if (USER_SETTINGS_BY_NAME.has(name)) settings[name] = JSON.parse(value) as SettingValue;
  }
  settings.timezone = user.timezone;
  settings.email_address_visibility = user.email_address_visibility;
  return settings;
}

// Made on first use: building it loads ICU's language data, about 15 ms at start otherwise.
let languageNames: Intl.DisplayNames | undefined;

/** The English name of a language code, or undefined for a code that names no language. */
export function languageName(code: string): string | undefined {
  try {
    languageNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    return languageNames.of(code.replace('_', '-'));
  } catch {
    return undefined;
  }
}

/** Register state for fetch type `user_settings`: every setting, in one object. */
export function userSettingsState({ stoa, user }: StateContext): Record<string, unknown> {
  return { user_settings: { ...userSettings(stoa, user), ...USER_SETTINGS_EXTRAS } };
}

/**
 * Hiding or showing one's email changes what each viewer may see: those whose view changed
 * learn the new delivery_email (or null), and everyone learns a new API email when it changes.
 */
function announceEmailVisibility(stoa: Stoa, before: UserRow, after: UserRow): void {
  for (const viewerId of usersWhoCanAccess(stoa, after)) {
    const viewer = stoa.users.byId(viewerId)!;
    const couldSee = canSeeDeliveryEmail(viewer, before);
    const canSee = canSeeDeliveryEmail(viewer, after);
    if (couldSee !== canSee) {
      const person = { user_id: after.id, delivery_email: canSee ? after.delivery_email : null };
      sendEvent(stoa, { type: 'realm_user', op: 'update', person }, [viewerId]);
    }
  }
  if (before.email !== after.email) {
    const person = { user_id: after.id, new_email: after.email };
    sendEvent(stoa, { type: 'realm_user', op: 'update', person }, usersWhoCanAccess(stoa, after));
  }
}

/** Timezone and email visibility live on the user row, because User objects show them too. */
function storeSetting(stoa: Stoa, user: UserRow, name: string, value: SettingValue): void {
  if (name === 'timezone') return stoa.users.setTimezone(user.id, value as string);
  if (name === 'email_address_visibility') {
    stoa.users.setEmailVisibility(user.id, value as number);
    return stoa.users.setEmail(user.id, apiEmailFor(user, value as number));
  }
  if (value === USER_SETTINGS_BY_NAME.get(name)!.default) stoa.users.deleteSetting(user.id, name);
  else stoa.users.putSetting(user.id, name, JSON.stringify(value));
}

/**
 * The event of one setting change. Since feature level 439 it is the only one: the legacy
 * update_display_settings and update_global_notifications events are no longer sent.
 */
function announceSetting(stoa: Stoa, user: UserRow, name: string, value: SettingValue): void {
  const language = name === 'default_language' ? { language_name: languageName(value as string) } : {};
  sendEvent(stoa, { type: 'user_settings', op: 'update', property: name, value, ...language }, [user.id]);
}

/** Changes some of a user's settings; unchanged values are skipped and send no events. */
export function changeUserSettings(stoa: Stoa, userId: number, changes: Record<string, SettingValue>): string[] {
  return write(stoa, () => {
    const changed: string[] = [];
    for (const [name, value] of Object.entries(changes)) {
      const before = stoa.users.byId(userId)!;
      if (userSettings(stoa, before)[name] === value) continue;
      changed.push(name);
      storeSetting(stoa, before, name, value);
      const after = stoa.users.byId(userId)!;
      announceSetting(stoa, after, name, value);
      if (name === 'timezone') {
        const person = { user_id: userId, email: after.email, timezone: after.timezone };
        sendEvent(stoa, { type: 'realm_user', op: 'update', person }, usersWhoCanAccess(stoa, after));
      }
      if (name === 'email_address_visibility') announceEmailVisibility(stoa, before, after);
      if (name === 'presence_enabled') presenceEnabledChanged(stoa, after, value as boolean);
      if (name === 'enable_drafts_synchronization' && value === false) forgetDrafts(stoa, userId);
      // Administrators see who consented to a data export with their private data.
      if (name === 'allow_private_data_export') {
        const event = { type: 'realm_export_consent', user_id: userId, consented: value };
        sendEvent(stoa, event, stoa.users.activeAdministratorIds());
      }
    }
    return changed;
  });
}

/** Renames a user, telling everyone's clients. */
export function changeFullName(stoa: Stoa, userId: number, fullName: string): void {
  write(stoa, () => {
    if (stoa.users.byId(userId)!.full_name === fullName) return;
    stoa.users.setFullName(userId, fullName);
    const user = stoa.users.byId(userId)!;
    const person = { user_id: userId, full_name: fullName };
    sendEvent(stoa, { type: 'realm_user', op: 'update', person }, usersWhoCanAccess(stoa, user));
  });
}

/** Everything one PATCH /settings changes, in one transaction: all of it lands, or none. */
export function updateAccount(
  stoa: Stoa,
  userId: number,
  changes: { fullName?: string; passwordHash?: string; keepSessionId?: number; settings: Record<string, SettingValue> },
): void {
  write(stoa, () => {
    if (changes.fullName !== undefined) changeFullName(stoa, userId, changes.fullName);
    if (changes.passwordHash !== undefined) {
      stoa.users.setPasswordHash(userId, changes.passwordHash);
      revokeSessions(stoa, userId, changes.keepSessionId);
    }
    // What people change themselves is theirs: a change for many users may leave it alone.
    for (const name of changeUserSettings(stoa, userId, changes.settings)) stoa.users.markSettingEdited(userId, name);
  });
}

/**
 * An administrator's change of settings for many users at once (level 444): each user hears
 * of their own changes. With `skipIfEdited`, a setting someone changed themselves stays theirs.
 */
export function changeSettingsOfUsers(stoa: Stoa, userIds: readonly number[], settings: Record<string, SettingValue>, skipIfEdited: boolean): void {
  write(stoa, () => {
    for (const userId of userIds) {
      const wanted = Object.entries(settings).filter(([name]) => !(skipIfEdited && stoa.users.hasEditedSetting(userId, name)));
      changeUserSettings(stoa, userId, Object.fromEntries(wanted));
    }
  });
}

/** The organization's defaults for new users' settings: Stoa's, overridden by what administrators chose. */
export function realmUserSettingsDefaults(stoa: Stoa): Record<string, SettingValue> {
  const defaults: Record<string, SettingValue> = {};
  for (const def of USER_SETTINGS) if (!NOT_ORGANIZATION_DEFAULTS.has(def.name)) defaults[def.name] = def.default;
  for (const { name, value } of stoa.users.realmDefaultOverrides()) {
    if (name in defaults) defaults[name] = JSON.parse(value) as SettingValue;
  }
  return defaults;
}

/** Register state for fetch type `realm_user_settings_defaults`. */
export function realmUserSettingsDefaultsState({ stoa }: StateContext): Record<string, unknown> {
  return { realm_user_settings_defaults: { ...realmUserSettingsDefaults(stoa), ...USER_SETTINGS_EXTRAS } };
}

/**
 * Changes the organization's defaults for new users, in one transaction; everyone in the
 * organization hears of each real change. Existing users keep their settings.
 */
export function changeRealmUserSettingsDefaults(stoa: Stoa, changes: Record<string, SettingValue>): void {
  write(stoa, () => {
    const current = realmUserSettingsDefaults(stoa);
    for (const [name, value] of Object.entries(changes)) {
      if (current[name] === value) continue;
      // Like a user's own settings, only values that differ from Stoa's default are stored.
      if (value === USER_SETTINGS_BY_NAME.get(name)!.default) stoa.users.deleteRealmDefault(name);
      else stoa.users.putRealmDefault(name, JSON.stringify(value));
      const event = { type: 'realm_user_settings_defaults', op: 'update', property: name, value };
      sendEvent(stoa, event, stoa.users.activeIds());
    }
  });
}
