import { alertWordsState } from '../alert-words/views';
import { incomingWebhookBotsState, realmBotsState } from '../bots/state';
import { devicesState } from '../devices/views';
import { draftsState } from '../drafts/state';
import { channelFoldersState } from '../channels/folders';
import { defaultStreamsState, streamState, subscriptionState } from '../channels/state';
import { defaultStreamGroupsState } from '../default-stream-groups/views';
import { onboardingStepsState } from '../onboarding/steps';
import { userGroupsState } from '../groups/state';
import {
  messageState,
  recentPrivateConversationsState,
  starredMessagesState,
  unreadMessagesState,
} from '../messages/state';
import { mutedUsersState } from '../muted-users/state';
import { navigationViewsState } from '../navigation-views/views';
import { presenceState } from '../presence/state';
import { realmFiltersState, realmLinkifiersState } from '../linkifiers/views';
import { realmPlaygroundsState } from '../playgrounds/views';
import { gifPickerKeyState, realmState } from '../realm/state';
import { realmDomainsState } from '../realm-domains/views';
import { realmEmojiState } from '../realm-emoji/state';
import { remindersState } from '../reminders/views';
import { savedSnippetsState } from '../saved-snippets/views';
import { scheduledMessagesState } from '../scheduled-messages/state';
import { realmUserSettingsDefaultsState, userSettingsState } from '../users/settings-store';
import { userStatusState } from '../user-status/state';
import { mutedTopicsState, userTopicState } from '../user-topics/state';
import { customProfileFieldsState } from '../profile-fields/state';
import { realmUserState } from '../users/state';
import type { StateContext } from './state-context';

/**
 * Register's initial state, by fetch type: each area supplies the keys zulip.yaml lists for
 * its type. A type whose area is not built yet is absent, so its keys are too.
 */
export const STATE_PROVIDERS: Record<string, (context: StateContext) => Record<string, unknown>> = {
  alert_words: alertWordsState,
  channel_folders: channelFoldersState,
  custom_profile_fields: customProfileFieldsState,
  default_streams: defaultStreamsState,
  default_stream_groups: defaultStreamGroupsState,
  drafts: draftsState,
  onboarding_steps: onboardingStepsState,
  realm: realmState,
  giphy: gifPickerKeyState('giphy'),
  tenor: gifPickerKeyState('tenor'),
  klipy: gifPickerKeyState('klipy'),
  realm_user: realmUserState,
  realm_domains: realmDomainsState,
  realm_emoji: realmEmojiState,
  realm_bot: realmBotsState,
  realm_incoming_webhook_bots: incomingWebhookBotsState,
  realm_user_groups: userGroupsState,
  realm_user_settings_defaults: realmUserSettingsDefaultsState,
  realm_linkifiers: realmLinkifiersState,
  realm_filters: realmFiltersState,
  realm_playgrounds: realmPlaygroundsState,
  saved_snippets: savedSnippetsState,
  scheduled_messages: scheduledMessagesState,
  reminders: remindersState,
  navigation_views: navigationViewsState,
  stream: streamState,
  subscription: subscriptionState,
  user_settings: userSettingsState,
  user_topic: userTopicState,
  muted_topics: mutedTopicsState,
  muted_users: mutedUsersState,
  message: messageState,
  // unread_msgs needs `message` too; the provider checks.
  update_message_flags: unreadMessagesState,
  starred_messages: starredMessagesState,
  recent_private_conversations: recentPrivateConversationsState,
  presence: presenceState,
  device: devicesState,
  user_status: userStatusState,
};
