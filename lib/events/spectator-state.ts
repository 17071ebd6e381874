import { spectatorChannels } from '../channels/access';
import { spectatorChannelFoldersState } from '../channels/folders';
import { spectatorSubscriptionState } from '../channels/state';
import { userGroupsState } from '../groups/state';
import { realmFiltersState, realmLinkifiersState } from '../linkifiers/views';
import { realmPlaygroundsState } from '../playgrounds/views';
import { customProfileFieldsState } from '../profile-fields/state';
import { realmEmojiState } from '../realm-emoji/state';
import { realmState } from '../realm/state';
import { realmSetting } from '../realm/settings-store';
import { USER_SETTINGS_EXTRAS } from '../users/settings';
import { realmUserSettingsDefaultsState, userSettings } from '../users/settings-store';
import { SPECTATOR_PLACEHOLDER, spectatorRealmUserState } from '../users/state';
import type { StateContext } from './state-context';

/** What a spectator's register state is made from besides the usual context. */
export interface SpectatorContext extends StateContext {
  /** The language the spectator chose (Zulip's language cookie), else the organization's. */
  language: string;
  /** Whether the client asked for this fetch type too. */
  wants: (type: string) => boolean;
}

/** A spectator's settings: everyone's defaults, in their language, opening on recent conversations, as on Zulip. */
function spectatorSettings({ stoa, language }: SpectatorContext): Record<string, unknown> {
  return {
    ...userSettings(stoa, SPECTATOR_PLACEHOLDER),
    ...USER_SETTINGS_EXTRAS,
    default_language: language,
    web_home_view: 'recent',
  };
}

/** Nothing of one's own: a spectator has no account to keep drafts, mutes or statuses in. */
const none = (state: Record<string, unknown>) => (): Record<string, unknown> => state;

/**
 * Register state for spectators, by fetch type, as Zulip's fetch_initial_state_data gives it
 * to a visitor without an account: the organization's public face (settings, emoji, groups,
 * everyone as a spectator may see them), the channels they may read as their subscriptions,
 * and empty personal data. `stream` is left out, as Zulip leaves it out for them. A fetch type
 * missing here gives a spectator nothing, so a new area reveals nothing until it is added.
 */
export const SPECTATOR_STATE_PROVIDERS: Record<string, (context: SpectatorContext) => Record<string, unknown>> = {
  alert_words: none({ alert_words: [] }),
  channel_folders: ({ stoa }) => spectatorChannelFoldersState(stoa, spectatorChannels(stoa)),
  custom_profile_fields: (context) => ({ ...customProfileFieldsState(context), custom_profile_fields: [] }),
  default_streams: none({ realm_default_streams: [] }),
  drafts: none({ drafts: [] }),
  // Editing and presence are shown as off: a spectator can do neither.
  realm: (context) => ({ ...realmState(context), realm_allow_message_editing: false, realm_presence_disabled: true }),
  realm_user: spectatorRealmUserState,
  realm_emoji: realmEmojiState,
  realm_bot: none({ realm_bots: [] }),
  realm_user_groups: userGroupsState,
  realm_user_settings_defaults: realmUserSettingsDefaultsState,
  realm_linkifiers: realmLinkifiersState,
  realm_filters: realmFiltersState,
  realm_playgrounds: realmPlaygroundsState,
  saved_snippets: none({ saved_snippets: [] }),
  scheduled_messages: none({ scheduled_messages: [] }),
  reminders: none({ reminders: [] }),
  device: none({ devices: {} }),
  realm_domains: none({ realm_domains: [] }),
  navigation_views: none({ navigation_views: [] }),
  subscription: spectatorSubscriptionState,
  user_settings: (context) => ({ user_settings: spectatorSettings(context) }),
  user_topic: none({ user_topics: [] }),
  muted_topics: ({ queue }) => (queue.eventTypes?.has('user_topic') ? {} : { muted_topics: [] }),
  muted_users: none({ muted_users: [] }),
  message: none({ max_message_id: -1 }),
  // Everything is read for a spectator.
  update_message_flags: (context) =>
    context.wants('message')
      ? { unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false } }
      : {},
  starred_messages: none({ starred_messages: [] }),
  recent_private_conversations: none({ recent_private_conversations: [] }),
  presence: ({ stoa }) => ({ presences: {}, server_timestamp: stoa.clock.now() / 1000 }),
  user_status: none({ user_status: {} }),
};

/** The organization's language, for a spectator who chose none. */
export function organizationLanguage(context: Pick<StateContext, 'stoa'>): string {
  return realmSetting(context.stoa, 'realm_default_language') as string;
}
