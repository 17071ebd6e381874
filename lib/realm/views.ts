import { relayConfigured } from '../push/relay';
import { accessChannelById } from '../channels/access';
import {
  GROUP_SETTING_UPDATE_SCHEMA,
  parseGroupSettingChange,
  type GroupSettingChange,
  type GroupSettingValue,
} from '../groups/settings';
import { endpoint, NO_PARAMS, publicEndpoint } from '../http/endpoint';
import { ApiError, badRequest, ownerRequired } from '../http/errors';
import type { ParamSchema } from '../http/validate';
import { markdownContextFor } from '../markdown/context';
import { renderMarkdown } from '../markdown/render';
import type { Stoa } from '../stoa';
import { languageName } from '../users/settings-store';
import { Role, type UserRow } from '../users/queries';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../version';
import { updateRealm, type RealmChanges } from './settings-actions';
import { REALM_SERVER_FACTS, REALM_SETTINGS, type RealmSettingDef } from './settings';
import { realmSetting, webPublicChannelsEnabled } from './settings-store';
import { realmIconUrl } from './images';
import { requireAdministrator } from '../users/access';

/** Which login methods exist: passwords always, the development login only with --dev. */
function authenticationMethods(stoa: Stoa): Record<string, boolean> {
  return {
    password: true,
    dev: stoa.config.dev,
    email: true,
    ldap: false,
    remoteuser: false,
    github: false,
    azuread: false,
    gitlab: false,
    apple: false,
    google: false,
    saml: false,
    'openid connect': false,
    discord: false,
  };
}

/** What a client learns before logging in: the server's version and how to log in. */
export const serverSettings = publicEndpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => {
    const realm = stoa.realm.get()!;
    return {
      authentication_methods: authenticationMethods(stoa),
      external_authentication_methods: [],
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      zulip_version: ZULIP_VERSION,
      zulip_merge_base: ZULIP_MERGE_BASE,
      push_notifications_enabled: relayConfigured(stoa),
      // Stoa's own: whether invitations can go out by email (--smtp), so an invitation form
      // offers them only then.
      email_invitations_enabled: stoa.mailer.configured,
      // Stoa's own: whether it sends mail at all (--smtp): password resets, email changes,
      // missed-message emails. The login page offers "Forgot your password?" only then.
      outgoing_email_enabled: stoa.mailer.configured,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_uri: stoa.site,
      realm_url: stoa.site,
      realm_name: realm.name,
      realm_icon: realmIconUrl(stoa),
      realm_description: renderMarkdown(realm.description, markdownContextFor(stoa)).html,
      // Spectators have something to read only once a web-public channel exists.
      realm_web_public_access_enabled:
        webPublicChannelsEnabled(stoa) && stoa.channels.all().some((c) => c.is_web_public && !c.is_archived),
    };
  },
});

/** Zulip's limits on the organization's name and description, in characters. */
const MAX_REALM_NAME_LENGTH = 40;
const MAX_REALM_DESCRIPTION_LENGTH = 1000;
const MAX_JITSI_SERVER_URL_LENGTH = 200;

/** Time limits where "unlimited" stands for no limit (stored as null). */
const TIME_LIMITS = new Set([
  'realm_message_content_edit_limit_seconds',
  'realm_message_content_delete_limit_seconds',
  'realm_move_messages_within_stream_limit_seconds',
  'realm_move_messages_between_streams_limit_seconds',
]);
/** Settings naming a channel, where any negative ID turns the feature off (stored as -1). */
const CHANNEL_SETTINGS = new Set([
  'realm_moderation_request_channel_id',
  'realm_new_stream_announcements_stream_id',
  'realm_signup_announcements_stream_id',
  'realm_zulip_update_announcements_stream_id',
]);
/** Settings chosen by name whose unknown names get Zulip's `Invalid <name>`. */
const NAMED_CHOICES = new Set(['realm_message_edit_history_visibility_policy', 'realm_topics_policy', 'realm_default_avatar_source']);
/** Settings whose unknown IDs get Zulip's `Invalid <name> <id>`. */
const NUMBERED_CHOICES = new Set(['realm_video_chat_provider', 'realm_gif_rating_policy', 'realm_media_preview_size']);

/** The parameter name of a setting: its register key without the realm_ prefix. */
function paramName(def: RealmSettingDef): string {
  return def.key.replace(/^realm_/, '');
}

/**
 * How each setting arrives. Most take the stored value's own schema; the others are checked
 * in parseSetting, which words their errors as Zulip does.
 */
function paramSchema(def: RealmSettingDef): ParamSchema {
  if (def.groupSetting) return GROUP_SETTING_UPDATE_SCHEMA;
  if (TIME_LIMITS.has(def.key) || def.key === 'realm_message_retention_days') return { type: ['integer', 'string'] };
  if (CHANNEL_SETTINGS.has(def.key) || NUMBERED_CHOICES.has(def.key)) return { type: 'integer' };
  if (NAMED_CHOICES.has(def.key) || def.key === 'realm_default_language') return { type: 'string' };
  // A JSON-encoded string, as Zulip takes it; null is refused in parseSetting.
  if (def.key === 'realm_jitsi_server_url') return { type: ['string', 'null'] };
  return def.schema;
}

const REALM_PARAMS: Record<string, ParamSchema> = {
  ...Object.fromEntries(REALM_SETTINGS.map((def) => [paramName(def), paramSchema(def)])),
  name: { type: 'string', maxLength: MAX_REALM_NAME_LENGTH },
  description: { type: 'string', maxLength: MAX_REALM_DESCRIPTION_LENGTH },
  // Zulip 10.2's mandatory_topics is gone since feature level 392: topics_policy replaced it.
};

function badValue(name: string, value: unknown): ApiError {
  return new ApiError('REQUEST_VARIABLE_INVALID', `Bad value for '${name}': ${String(value)}`, 400, {
    var_name: name,
    bad_value: value,
  });
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** A plain setting's new value as it will be stored, after the checks its schema cannot make. */
function parseSetting(stoa: Stoa, user: UserRow, def: RealmSettingDef, value: unknown): unknown {
  const name = paramName(def);
  if (TIME_LIMITS.has(def.key)) {
    if (value === 'unlimited') return null;
    if (typeof value !== 'number' || value <= 0) throw badValue(name, value);
    return value;
  }
  if (def.key === 'realm_message_retention_days') {
    if (value === 'unlimited') return -1;
    if (typeof value !== 'number' || value <= 0) throw badValue(name, value);
    return value;
  }
  if (CHANNEL_SETTINGS.has(def.key)) {
    const channelId = value as number;
    if (channelId < 0) return -1;
    // Administrators may point these at any channel they can see, subscribed or not.
    const channel = accessChannelById(stoa, user, channelId, { need: 'metadata' });
    if (def.key === 'realm_moderation_request_channel_id' && !channel.invite_only) {
      throw badRequest('Moderation request channel must be private.');
    }
    return channelId;
  }
  if (NAMED_CHOICES.has(def.key)) {
    if (!((def.schema.enum as string[]) ?? []).includes(value as string)) throw badRequest(`Invalid ${name}`);
    return value;
  }
  if (def.key === 'realm_video_chat_provider') {
    const available = Object.values(REALM_SERVER_FACTS.realm_available_video_chat_providers as Record<string, { id: number }>);
    if (!available.some((provider) => provider.id === value)) throw badRequest(`Invalid video_chat_provider ${String(value)}`);
    return value;
  }
  if (def.key === 'realm_gif_rating_policy' || def.key === 'realm_media_preview_size') {
    if (!((def.schema.enum as number[]) ?? []).includes(value as number)) throw badRequest(`Invalid ${name} ${String(value)}`);
    return value;
  }
  if (def.key === 'realm_default_language') {
    if (languageName(value as string) === undefined) throw badRequest(`Invalid language '${String(value)}'`);
    return value;
  }
  if (def.key === 'realm_jitsi_server_url') {
    if (value === null) throw badRequest('jitsi_server_url is not a string');
    // "default" hands the choice back to the server's own Jitsi server.
    if (value === 'default') return null;
    const url = value as string;
    if (url.length > MAX_JITSI_SERVER_URL_LENGTH || !isHttpUrl(url)) throw badRequest('jitsi_server_url is not an allowed_type');
    return url;
  }
  return value;
}

type UpdateRealmParams = Record<string, unknown> & { name?: string; description?: string };

/** `PATCH /realm`: administrators change organization settings; owners also the most sensitive ones. */
export const updateRealmView = endpoint<UpdateRealmParams>({
  params: { properties: REALM_PARAMS },
  authorize: requireAdministrator,
  view: ({ stoa, user, params }) => {
    const requested = REALM_SETTINGS.filter((def) => params[paramName(def)] !== undefined);
    if (user.role !== Role.OWNER && requested.some((def) => def.ownerOnly)) throw ownerRequired();

    // Everything is checked before anything changes, so a request succeeds or fails whole.
    const changes: RealmChanges = { settings: [], groupSettings: [] };
    for (const def of requested) {
      const raw = params[paramName(def)];
      if (def.groupSetting) {
        const current = realmSetting(stoa, def.key) as number;
        const value = parseGroupSettingChange(stoa, paramName(def), def.permission!, raw as GroupSettingChange, current);
        if (value !== undefined) changes.groupSettings.push({ key: def.key, value });
        continue;
      }
      const value = parseSetting(stoa, user, def, raw);
      if (value !== realmSetting(stoa, def.key)) changes.settings.push({ key: def.key, value });
    }
    const realm = stoa.realm.get()!;
    if (params.name !== undefined && params.name !== realm.name) changes.name = params.name;
    if (params.description !== undefined && params.description !== realm.description) {
      changes.description = params.description;
    }

    updateRealm(stoa, changes);
    return changedValues(changes);
  },
});

/**
 * The success body names what changed: text settings as "updated" (as Zulip does, since
 * they may be long), choices by their name, everything else by its new value.
 */
function changedValues(changes: RealmChanges): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (changes.name !== undefined) body.name = 'updated';
  if (changes.description !== undefined) body.description = 'updated';
  for (const { key, value } of changes.settings) {
    const name = key.replace(/^realm_/, '');
    body[name] = typeof value === 'string' && !NAMED_CHOICES.has(key) ? 'updated' : value;
  }
  for (const { key, value } of changes.groupSettings) body[key.replace(/^realm_/, '')] = value satisfies GroupSettingValue;
  return body;
}
