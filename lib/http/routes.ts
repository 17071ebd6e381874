import * as alertWordViews from '../alert-words/views';
import * as sessionViews from '../auth/session-views';
import * as authViews from '../auth/views';
import * as botStorageViews from '../bots/storage-views';
import * as botViews from '../bots/views';
import * as callViews from '../calls/views';
import * as channelAdminViews from '../channels/admin-views';
import * as channelFolderViews from '../channels/folders';
import * as channelViews from '../channels/views';
import * as deviceViews from '../devices/views';
import * as defaultStreamGroupViews from '../default-stream-groups/views';
import * as draftViews from '../drafts/views';
import * as exportViews from '../export/views';
import * as eventViews from '../events/views';
import * as groupViews from '../groups/views';
import * as inviteViews from '../invites/views';
import * as messageDeleteViews from '../messages/delete';
import * as messageEditViews from '../messages/edit';
import * as messageFlagViews from '../messages/flag-views';
import * as reactionViews from '../messages/reactions';
import * as readReceiptViews from '../messages/read-receipts';
import * as reportViews from '../messages/report';
import * as submessageViews from '../messages/submessages';
import * as typingViews from '../messages/typing';
import * as messageViews from '../messages/views';
import * as mutedUserViews from '../muted-users/views';
import * as navigationViewViews from '../navigation-views/views';
import * as onboardingViews from '../onboarding/steps';
import * as profileFieldViews from '../profile-fields/views';
import * as presenceViews from '../presence/views';
import * as pushViews from '../push/views';
import * as userStatusViews from '../user-status/views';
import * as linkifierViews from '../linkifiers/views';
import * as realmDomainViews from '../realm-domains/views';
import * as realmEmojiViews from '../realm-emoji/views';
import * as playgroundViews from '../playgrounds/views';
import * as realmImageViews from '../realm/image-views';
import * as realmViews from '../realm/views';
import * as welcomeViews from '../realm/welcome';
import * as reminderViews from '../reminders/views';
import * as savedSnippetViews from '../saved-snippets/views';
import * as scheduledMessageViews from '../scheduled-messages/views';
import * as userTopicViews from '../user-topics/views';
import * as uploadViews from '../uploads/views';
import { deactivateRealmView } from '../realm/deactivation';
import * as avatarViews from '../users/avatar-views';
import * as userViews from '../users/views';
import * as zcommandViews from '../users/zcommand-views';
import type { Endpoint } from './endpoint';

/** Where every route of ROUTES is mounted for API clients, authenticated by HTTP Basic. */
export const API_PREFIX = '/api/v1';
/** Where ROUTES are mounted again for the browser, authenticated by the session cookie, as on Zulip. */
export const JSON_PREFIX = '/json';
/** Where ACCOUNT_ROUTES are mounted: the browser's sign-in, by session cookie too. */
export const ACCOUNTS_PREFIX = '/accounts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  method: Method;
  /** Express path under its prefix; `:name` segments are path parameters. */
  path: string;
  endpoint: Endpoint;
  /** Exists only when the server runs with --dev. */
  devOnly?: boolean;
}

/**
 * Every endpoint of the API, in one table. Order matters where paths overlap: a literal
 * segment (/users/me) comes before a parameter (/users/:user_id), and a parameter with a
 * pattern (:user_id, digits) before the catch-all (:email).
 */
export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/server_settings', endpoint: realmViews.serverSettings },
  { method: 'POST', path: '/fetch_api_key', endpoint: authViews.fetchApiKey },
  { method: 'POST', path: '/jwt/fetch_api_key', endpoint: authViews.jwtFetchApiKey },
  { method: 'POST', path: '/dev_fetch_api_key', endpoint: authViews.devFetchApiKey },
  { method: 'GET', path: '/dev_list_users', endpoint: authViews.devListUsers },

  { method: 'POST', path: '/register', endpoint: eventViews.registerView },
  { method: 'GET', path: '/events', endpoint: eventViews.getEvents },
  { method: 'DELETE', path: '/events', endpoint: eventViews.deleteEvents },

  { method: 'PATCH', path: '/settings', endpoint: userViews.updateSettings },
  // Older names of the same endpoint, which the Python bindings still call.
  { method: 'PATCH', path: '/settings/display', endpoint: userViews.updateSettings },
  { method: 'PATCH', path: '/settings/notifications', endpoint: userViews.updateSettings },
  { method: 'POST', path: '/zcommand', endpoint: zcommandViews.zcommandView },

  { method: 'POST', path: '/messages', endpoint: messageViews.sendMessageView },
  { method: 'GET', path: '/messages', endpoint: messageViews.getMessages },
  { method: 'POST', path: '/messages/render', endpoint: messageViews.renderMessageView },
  { method: 'POST', path: '/messages/flags', endpoint: messageFlagViews.updateFlagsView },
  { method: 'POST', path: '/messages/flags/narrow', endpoint: messageFlagViews.updateFlagsForNarrowView },
  { method: 'GET', path: '/messages/matches_narrow', endpoint: messageViews.matchesNarrowView },
  { method: 'GET', path: '/messages/:message_id', endpoint: messageViews.getMessage },
  { method: 'PATCH', path: '/messages/:message_id', endpoint: messageEditViews.updateMessageView },
  { method: 'DELETE', path: '/messages/:message_id', endpoint: messageDeleteViews.deleteMessageView },
  { method: 'GET', path: '/messages/:message_id/history', endpoint: messageEditViews.getMessageHistory },
  { method: 'GET', path: '/messages/:message_id/read_receipts', endpoint: readReceiptViews.readReceiptsView },
  { method: 'POST', path: '/messages/:message_id/report', endpoint: reportViews.reportMessageView },
  { method: 'POST', path: '/messages/:message_id/reactions', endpoint: reactionViews.addReactionView },
  { method: 'DELETE', path: '/messages/:message_id/reactions', endpoint: reactionViews.removeReactionView },
  { method: 'POST', path: '/submessage', endpoint: submessageViews.submessageView },
  { method: 'POST', path: '/typing', endpoint: typingViews.setTypingStatus },
  { method: 'POST', path: '/messages/:message_id/typing', endpoint: typingViews.setEditingStatus },

  { method: 'POST', path: '/register_client_device', endpoint: deviceViews.registerClientDevice },
  { method: 'POST', path: '/remove_client_device', endpoint: deviceViews.removeClientDevice },
  { method: 'POST', path: '/mobile_push/register', endpoint: pushViews.registerDevice },
  { method: 'POST', path: '/mobile_push/test_notification', endpoint: pushViews.testNotification },
  { method: 'POST', path: '/mobile_push/e2ee/test_notification', endpoint: pushViews.encryptedTestNotification },
  { method: 'POST', path: '/mark_all_as_read', endpoint: messageFlagViews.markAllAsReadView },
  { method: 'POST', path: '/mark_stream_as_read', endpoint: messageFlagViews.markChannelAsReadView },
  { method: 'POST', path: '/mark_topic_as_read', endpoint: messageFlagViews.markTopicAsReadView },

  { method: 'GET', path: '/users', endpoint: userViews.getUsers },
  { method: 'POST', path: '/users', endpoint: userViews.createUserView },
  { method: 'GET', path: '/users/me', endpoint: userViews.getOwnUser },
  { method: 'DELETE', path: '/users/me', endpoint: userViews.deactivateOwnAccount },
  { method: 'POST', path: '/users/me/avatar', endpoint: avatarViews.uploadOwnAvatarView },
  { method: 'DELETE', path: '/users/me/avatar', endpoint: userViews.deleteOwnAvatar },
  { method: 'POST', path: '/users/me/api_key/regenerate', endpoint: userViews.regenerateOwnApiKeyView },
  { method: 'GET', path: '/users/me/subscriptions', endpoint: channelViews.getSubscriptions },
  { method: 'POST', path: '/users/me/subscriptions', endpoint: channelViews.subscribe },
  { method: 'DELETE', path: '/users/me/subscriptions', endpoint: channelViews.unsubscribe },
  { method: 'PATCH', path: '/users/me/subscriptions', endpoint: channelViews.updateSubscriptions },
  { method: 'POST', path: '/users/me/subscriptions/properties', endpoint: channelAdminViews.updateSubscriptionProperties },
  { method: 'PATCH', path: '/users/me/subscriptions/muted_topics', endpoint: userTopicViews.updateMutedTopic },
  { method: 'PATCH', path: '/users/me/subscriptions/:stream_id', endpoint: channelAdminViews.updateSubscriptionPropertyView },
  { method: 'POST', path: '/user_topics', endpoint: userTopicViews.updateUserTopic },
  { method: 'POST', path: '/users/me/presence', endpoint: presenceViews.updatePresence },
  { method: 'GET', path: '/users/me/status', endpoint: userStatusViews.getOwnStatus },
  { method: 'POST', path: '/users/me/status', endpoint: userStatusViews.updateStatusView },
  { method: 'PATCH', path: '/users/me/profile_data', endpoint: profileFieldViews.updateOwnProfileDataView },
  { method: 'DELETE', path: '/users/me/profile_data', endpoint: profileFieldViews.removeOwnProfileDataView },
  { method: 'GET', path: '/users/me/alert_words', endpoint: alertWordViews.getAlertWords },
  { method: 'POST', path: '/users/me/alert_words', endpoint: alertWordViews.addAlertWordsView },
  { method: 'DELETE', path: '/users/me/alert_words', endpoint: alertWordViews.removeAlertWordsView },
  { method: 'POST', path: '/users/me/apns_device_token', endpoint: pushViews.addApnsToken },
  { method: 'DELETE', path: '/users/me/apns_device_token', endpoint: pushViews.removeApnsToken },
  { method: 'POST', path: '/users/me/android_gcm_reg_id', endpoint: pushViews.addFcmToken },
  { method: 'DELETE', path: '/users/me/android_gcm_reg_id', endpoint: pushViews.removeFcmToken },
  { method: 'DELETE', path: '/users/me/platform_device_token', endpoint: pushViews.removePlatformToken },
  { method: 'POST', path: '/users/me/onboarding_steps', endpoint: onboardingViews.markOnboardingStepView },
  { method: 'POST', path: '/users/me/muted_users/:muted_user_id', endpoint: mutedUserViews.muteUserView },
  { method: 'DELETE', path: '/users/me/muted_users/:muted_user_id', endpoint: mutedUserViews.unmuteUserView },
  { method: 'GET', path: '/users/:user_id', endpoint: userViews.getUserById },
  { method: 'PATCH', path: '/users/:user_id', endpoint: userViews.updateUser },
  { method: 'DELETE', path: '/users/:user_id', endpoint: userViews.deactivateUserView },
  { method: 'POST', path: '/users/:user_id/reactivate', endpoint: userViews.reactivateUserView },
  { method: 'GET', path: '/users/:user_id_or_email/presence', endpoint: presenceViews.getUserPresence },
  { method: 'GET', path: '/users/:user_id/status', endpoint: userStatusViews.getUserStatus },
  { method: 'POST', path: '/users/:user_id/status', endpoint: userStatusViews.updateStatusForUserView },
  { method: 'GET', path: '/users/me/:stream_id/topics', endpoint: messageViews.getChannelTopics },
  { method: 'GET', path: '/users/:user_id/subscriptions/:stream_id', endpoint: channelViews.getSubscriptionStatus },
  { method: 'GET', path: '/users/:user_id/channels', endpoint: channelViews.getUserChannels },

  { method: 'PATCH', path: '/realm', endpoint: realmViews.updateRealmView },
  { method: 'POST', path: '/realm/deactivate', endpoint: deactivateRealmView },
  { method: 'GET', path: '/realm/icon', endpoint: realmImageViews.getRealmIconView },
  { method: 'POST', path: '/realm/icon', endpoint: realmImageViews.uploadRealmIconView },
  { method: 'DELETE', path: '/realm/icon', endpoint: realmImageViews.deleteRealmIconView },
  { method: 'GET', path: '/realm/logo', endpoint: realmImageViews.getRealmLogoView },
  { method: 'POST', path: '/realm/logo', endpoint: realmImageViews.uploadRealmLogoView },
  { method: 'DELETE', path: '/realm/logo', endpoint: realmImageViews.deleteRealmLogoView },
  { method: 'PATCH', path: '/realm/user_settings_defaults', endpoint: userViews.updateRealmUserSettingsDefaults },
  { method: 'POST', path: '/realm/test_welcome_bot_custom_message', endpoint: welcomeViews.testWelcomeMessageView },
  { method: 'GET', path: '/realm/profile_fields', endpoint: profileFieldViews.getProfileFields },
  { method: 'POST', path: '/realm/profile_fields', endpoint: profileFieldViews.createProfileFieldView },
  { method: 'PATCH', path: '/realm/profile_fields', endpoint: profileFieldViews.reorderProfileFieldsView },
  { method: 'PATCH', path: '/realm/profile_fields/:field_id', endpoint: profileFieldViews.updateProfileFieldView },
  { method: 'DELETE', path: '/realm/profile_fields/:field_id', endpoint: profileFieldViews.removeProfileFieldView },
  { method: 'GET', path: '/realm/presence', endpoint: presenceViews.getRealmPresence },
  { method: 'GET', path: '/realm/domains', endpoint: realmDomainViews.getRealmDomains },
  { method: 'POST', path: '/realm/domains', endpoint: realmDomainViews.addRealmDomainView },
  { method: 'PATCH', path: '/realm/domains/:domain', endpoint: realmDomainViews.updateRealmDomainView },
  { method: 'DELETE', path: '/realm/domains/:domain', endpoint: realmDomainViews.removeRealmDomainView },

  { method: 'GET', path: '/streams', endpoint: channelViews.getChannels },
  { method: 'GET', path: '/streams/:stream_id', endpoint: channelViews.getChannel },
  { method: 'PATCH', path: '/streams/:stream_id', endpoint: channelAdminViews.updateChannelView },
  { method: 'DELETE', path: '/streams/:stream_id', endpoint: channelAdminViews.archiveChannelView },
  { method: 'GET', path: '/streams/:stream_id/members', endpoint: channelViews.getChannelMembers },
  { method: 'GET', path: '/streams/:stream_id/email_address', endpoint: channelViews.getChannelEmailAddress },
  { method: 'POST', path: '/streams/:stream_id/delete_topic', endpoint: messageDeleteViews.deleteTopicView },
  { method: 'POST', path: '/default_streams', endpoint: channelAdminViews.addDefaultChannelView },
  { method: 'DELETE', path: '/default_streams', endpoint: channelAdminViews.removeDefaultChannelView },
  { method: 'POST', path: '/default_stream_groups/create', endpoint: defaultStreamGroupViews.createDefaultStreamGroupView },
  { method: 'PATCH', path: '/default_stream_groups/:group_id', endpoint: defaultStreamGroupViews.editDefaultStreamGroupView },
  { method: 'DELETE', path: '/default_stream_groups/:group_id', endpoint: defaultStreamGroupViews.removeDefaultStreamGroupView },
  {
    method: 'PATCH',
    path: '/default_stream_groups/:group_id/streams',
    endpoint: defaultStreamGroupViews.updateDefaultStreamGroupChannelsView,
  },
  { method: 'GET', path: '/get_stream_id', endpoint: channelViews.getChannelId },
  { method: 'POST', path: '/channels/create', endpoint: channelViews.createChannelView },
  { method: 'POST', path: '/channel_folders/create', endpoint: channelFolderViews.createChannelFolderView },
  { method: 'GET', path: '/channel_folders', endpoint: channelFolderViews.getChannelFoldersView },
  { method: 'PATCH', path: '/channel_folders', endpoint: channelFolderViews.reorderChannelFoldersView },
  { method: 'PATCH', path: '/channel_folders/:channel_folder_id', endpoint: channelFolderViews.updateChannelFolderView },
  { method: 'GET', path: '/users/:email', endpoint: userViews.getUserByEmail },
  { method: 'PATCH', path: '/users/:email', endpoint: userViews.updateUserByEmail },

  { method: 'POST', path: '/bots', endpoint: botViews.createBotView },
  { method: 'GET', path: '/bots', endpoint: botViews.getBots },
  { method: 'PATCH', path: '/bots/:bot_id', endpoint: botViews.updateBotView },
  { method: 'DELETE', path: '/bots/:bot_id', endpoint: botViews.deactivateBotView },
  { method: 'GET', path: '/bots/:bot_id/api_key', endpoint: botViews.getBotApiKey },
  { method: 'POST', path: '/bots/:bot_id/api_key/regenerate', endpoint: botViews.regenerateBotApiKeyView },
  { method: 'GET', path: '/bot_storage', endpoint: botStorageViews.getBotStorage },
  { method: 'PUT', path: '/bot_storage', endpoint: botStorageViews.putBotStorage },
  { method: 'DELETE', path: '/bot_storage', endpoint: botStorageViews.removeBotStorage },

  { method: 'POST', path: '/user_groups/create', endpoint: groupViews.createGroupView },
  { method: 'GET', path: '/user_groups', endpoint: groupViews.getGroups },
  { method: 'PATCH', path: '/user_groups/:user_group_id', endpoint: groupViews.updateGroupView },
  { method: 'POST', path: '/user_groups/:user_group_id/deactivate', endpoint: groupViews.deactivateGroupView },
  { method: 'GET', path: '/user_groups/:user_group_id/members', endpoint: groupViews.getMembersView },
  { method: 'POST', path: '/user_groups/:user_group_id/members', endpoint: groupViews.updateMembersView },
  { method: 'GET', path: '/user_groups/:user_group_id/members/:user_id', endpoint: groupViews.getMembershipView },
  { method: 'GET', path: '/user_groups/:user_group_id/subgroups', endpoint: groupViews.getSubgroupsView },
  { method: 'POST', path: '/user_groups/:user_group_id/subgroups', endpoint: groupViews.updateSubgroupsView },
  { method: 'GET', path: '/drafts', endpoint: draftViews.getDrafts },
  { method: 'POST', path: '/drafts', endpoint: draftViews.createDraftsView },
  { method: 'PATCH', path: '/drafts/:draft_id', endpoint: draftViews.editDraftView },
  { method: 'DELETE', path: '/drafts/:draft_id', endpoint: draftViews.deleteDraftView },
  { method: 'GET', path: '/realm/emoji', endpoint: realmEmojiViews.getRealmEmoji },
  { method: 'POST', path: '/realm/emoji/:emoji_name', endpoint: realmEmojiViews.uploadRealmEmojiView },
  { method: 'DELETE', path: '/realm/emoji/:emoji_name', endpoint: realmEmojiViews.deactivateRealmEmojiView },
  { method: 'GET', path: '/realm/linkifiers', endpoint: linkifierViews.getLinkifiers },
  { method: 'PATCH', path: '/realm/linkifiers', endpoint: linkifierViews.reorderLinkifiersView },
  { method: 'POST', path: '/realm/filters', endpoint: linkifierViews.addLinkifierView },
  { method: 'PATCH', path: '/realm/filters/:filter_id', endpoint: linkifierViews.updateLinkifierView },
  { method: 'DELETE', path: '/realm/filters/:filter_id', endpoint: linkifierViews.removeLinkifierView },
  { method: 'POST', path: '/realm/playgrounds', endpoint: playgroundViews.addPlaygroundView },
  { method: 'GET', path: '/export/realm', endpoint: exportViews.listExports },
  { method: 'POST', path: '/export/realm', endpoint: exportViews.createExport },
  { method: 'GET', path: '/export/realm/consents', endpoint: exportViews.exportConsents },
  { method: 'DELETE', path: '/export/realm/:export_id', endpoint: exportViews.removeExport },
  { method: 'DELETE', path: '/realm/playgrounds/:playground_id', endpoint: playgroundViews.removePlaygroundView },

  { method: 'GET', path: '/calls/bigbluebutton/create', endpoint: callViews.createBigBlueButtonCall },
  { method: 'POST', path: '/calls/nextcloud_talk/create', endpoint: callViews.createNextcloudTalkCall },
  { method: 'POST', path: '/calls/constructorgroups/create', endpoint: callViews.createConstructorGroupsCall },
  { method: 'POST', path: '/calls/zoom/create', endpoint: callViews.createZoomCall },

  { method: 'POST', path: '/user_uploads', endpoint: uploadViews.uploadFileView },
  { method: 'GET', path: '/user_uploads/:realm_id_str/*filename', endpoint: uploadViews.temporaryUrlView },
  { method: 'GET', path: '/thumbnail/status/:realm_id_str/*filename', endpoint: uploadViews.thumbnailStatusView },
  { method: 'GET', path: '/avatar/:email_or_id', endpoint: avatarViews.avatarRedirectView },
  { method: 'GET', path: '/avatar/:email_or_id/medium', endpoint: avatarViews.mediumAvatarRedirectView },
  { method: 'GET', path: '/attachments', endpoint: uploadViews.getAttachments },
  { method: 'DELETE', path: '/attachments/:attachment_id', endpoint: uploadViews.removeAttachmentView },

  { method: 'GET', path: '/invites', endpoint: inviteViews.getInvites },
  { method: 'POST', path: '/invites', endpoint: inviteViews.sendEmailInvites },
  { method: 'POST', path: '/invites/multiuse', endpoint: inviteViews.createMultiuseInvite },
  { method: 'DELETE', path: '/invites/multiuse/:invite_id', endpoint: inviteViews.revokeMultiuseInvite },
  { method: 'DELETE', path: '/invites/:invite_id', endpoint: inviteViews.revokeEmailInvite },
  { method: 'POST', path: '/invites/:invite_id/resend', endpoint: inviteViews.resendEmailInvite },

  { method: 'GET', path: '/saved_snippets', endpoint: savedSnippetViews.getSavedSnippets },
  { method: 'POST', path: '/saved_snippets', endpoint: savedSnippetViews.createSavedSnippetView },
  { method: 'PATCH', path: '/saved_snippets/:saved_snippet_id', endpoint: savedSnippetViews.editSavedSnippetView },
  { method: 'DELETE', path: '/saved_snippets/:saved_snippet_id', endpoint: savedSnippetViews.deleteSavedSnippetView },
  { method: 'GET', path: '/scheduled_messages', endpoint: scheduledMessageViews.getScheduledMessages },
  { method: 'POST', path: '/scheduled_messages', endpoint: scheduledMessageViews.createScheduledMessageView },
  { method: 'PATCH', path: '/scheduled_messages/:scheduled_message_id', endpoint: scheduledMessageViews.editScheduledMessageView },
  { method: 'DELETE', path: '/scheduled_messages/:scheduled_message_id', endpoint: scheduledMessageViews.deleteScheduledMessageView },
  { method: 'GET', path: '/navigation_views', endpoint: navigationViewViews.getNavigationViews },
  { method: 'POST', path: '/navigation_views', endpoint: navigationViewViews.addNavigationViewView },
  { method: 'PATCH', path: '/navigation_views/*fragment', endpoint: navigationViewViews.editNavigationViewView },
  { method: 'DELETE', path: '/navigation_views/*fragment', endpoint: navigationViewViews.removeNavigationViewView },
  { method: 'GET', path: '/reminders', endpoint: reminderViews.getReminders },
  { method: 'POST', path: '/reminders', endpoint: reminderViews.createReminderView },
  { method: 'DELETE', path: '/reminders/:reminder_id', endpoint: reminderViews.deleteReminderView },
];

/**
 * The browser's sign-in, under /accounts. Authenticated endpoints here take the session
 * cookie (and the CSRF header on unsafe methods), as under /json.
 */
export const ACCOUNT_ROUTES: readonly Route[] = [
  { method: 'POST', path: '/login', endpoint: sessionViews.login },
  { method: 'POST', path: '/logout', endpoint: sessionViews.logout },
  { method: 'GET', path: '/session', endpoint: sessionViews.currentSession },
  { method: 'POST', path: '/dev_login', endpoint: sessionViews.devLogin, devOnly: true },
  { method: 'GET', path: '/dev_people', endpoint: sessionViews.devPeople, devOnly: true },
  { method: 'GET', path: '/invite/:key', endpoint: inviteViews.inviteDetails },
  { method: 'POST', path: '/register', endpoint: inviteViews.register },
];
