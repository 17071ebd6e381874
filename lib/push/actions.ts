import { createHash } from 'node:crypto';
import type { DeviceRow } from '../devices/queries';
import { sendEvent, write } from '../events/send';
import { ApiError, badRequest } from '../http/errors';
import { directParticipants } from '../messages/conversations';
import { Flag } from '../messages/flags';
import { isIdle } from '../presence/actions';
import type { MessageRow } from '../messages/queries';
import type { Stoa } from '../stoa';
import { userSettings } from '../users/settings-store';
import type { UserRow } from '../users/queries';
import { inBackground } from './background';
import { sealForDevice } from './encryption';
import {
  encryptedMessagePayload,
  encryptedRemovalPayload,
  encryptedTestPayload,
  messagePayloads,
  removalPayloads,
  removedIds,
  testPayloads,
  type Notice,
} from './payloads';
import { TokenKind, type PushTokenRow, type TokenKindValue } from './queries';
import { postToRelay, RelayFailed, relayConfigured, relayForClient } from './relay';

function relayUser(stoa: Stoa, userId: number) {
  return { realm_url: stoa.site, user_id: userId };
}

/** Registers a phone's token; with a relay, the relay learns it first and may refuse it. */
export async function addPushToken(stoa: Stoa, user: UserRow, kind: TokenKindValue, token: string, iosAppId: string | null) {
  if (relayConfigured(stoa)) {
    await relayForClient(stoa, 'push/register', {
      ...relayUser(stoa, user.id),
      token,
      token_kind: kind,
      ...(iosAppId === null ? {} : { ios_app_id: iosAppId }),
    });
  }
  write(stoa, () => stoa.push.upsertToken(user.id, kind, token, iosAppId, Math.floor(stoa.clock.now() / 1000)));
}

/** Removes the user's token; kind undefined removes it whichever service issued it. */
export async function removePushToken(stoa: Stoa, user: UserRow, token: string, kind?: TokenKindValue) {
  const row = kind === undefined ? stoa.push.tokenOfUser(user.id, token) : stoa.push.tokenOfUserByKind(user.id, token, kind);
  if (!row) throw badRequest('Token does not exist');
  if (relayConfigured(stoa)) {
    await relayForClient(stoa, 'push/unregister', { ...relayUser(stoa, user.id), token, token_kind: row.kind });
  }
  write(stoa, () => stoa.push.deleteToken(row.id));
}

function devicesByKind(tokens: readonly PushTokenRow[]) {
  return {
    apple_devices: tokens.filter((t) => t.kind === TokenKind.apns).map((t) => t.token),
    android_devices: tokens.filter((t) => t.kind === TokenKind.fcm).map((t) => t.token),
  };
}

/** Tokens the relay reported as gone (the app was uninstalled): forget them as Zulip does. */
function forgetDeletedTokens(stoa: Stoa, answer: Record<string, unknown>): void {
  const deleted = answer.deleted_devices as { apple_devices?: unknown; android_devices?: unknown } | undefined;
  if (!deleted || !stoa.db.open) return;
  const drop = (tokens: unknown, kind: TokenKindValue) => {
    if (!Array.isArray(tokens)) return;
    for (const token of tokens) if (typeof token === 'string') stoa.push.deleteTokenByValue(token, kind);
  };
  write(stoa, () => {
    drop(deleted.apple_devices, TokenKind.apns);
    drop(deleted.android_devices, TokenKind.fcm);
  });
}

/** POST /mobile_push/test_notification: to one of the user's tokens, or to all of them. */
export async function sendTestNotification(stoa: Stoa, user: UserRow, token: string | undefined): Promise<void> {
  let tokens: PushTokenRow[];
  if (token !== undefined) {
    const row = stoa.push.tokenOfUser(user.id, token);
    if (!row) throw new ApiError('INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized');
    tokens = [row];
  } else {
    tokens = stoa.push.tokensOfUser(user.id);
  }
  if (!relayConfigured(stoa)) throw pushServiceNotConfigured();
  if (tokens.length === 0) return;
  const payloads = testPayloads(stoa, user, Math.floor(stoa.clock.now() / 1000));
  const answer = await relayForClient(stoa, 'push/notify', {
    ...relayUser(stoa, user.id),
    ...devicesByKind(tokens),
    apns_payload: payloads.apns,
    gcm_payload: payloads.gcm,
    gcm_options: { priority: 'high' },
  });
  forgetDeletedTokens(stoa, answer);
}

export function pushServiceNotConfigured(): ApiError {
  return new ApiError('PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.');
}

// ---------------------------------------------------------------------------
// End-to-end-encrypted devices
// ---------------------------------------------------------------------------

/** A `device` update event: only the fields that changed, as Zulip sends them. */
function announceDevice(stoa: Stoa, device: DeviceRow, changed: Record<string, unknown>): void {
  sendEvent(stoa, { type: 'device', op: 'update', device_id: device.id, ...changed }, [device.user_id]);
}

export interface PushKeyFields {
  pushKey: string;
  pushKeyId: number;
}

export interface PushTokenFields {
  tokenKind: 'fcm' | 'apns';
  tokenId: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

/** A pending registration older than this is no longer waited for: the app may send a new one. */
const REGISTRATION_PATIENCE_SECONDS = 24 * 60 * 60;

/**
 * POST /mobile_push/register (level 468): a first registration sets both the key and the
 * token; later calls rotate one of them. A token goes to the relay after the answer; until the
 * relay accepts it, it is the device's `pending_push_token_id`.
 */
export function registerPushDevice(
  stoa: Stoa,
  device: DeviceRow,
  key: PushKeyFields | undefined,
  token: PushTokenFields | undefined,
): void {
  if (key && !token) {
    if (device.push_key_id === null) throw badRequest('No push registration exists to rotate key for.');
    if (device.push_key_id === key.pushKeyId && device.push_key === key.pushKey) return;
    write(stoa, () => {
      stoa.devices.setKey(device.id, key.pushKey, key.pushKeyId);
      announceDevice(stoa, device, { push_key_id: key.pushKeyId });
    });
    return;
  }
  if (!token) return;
  const now = Math.floor(stoa.clock.now() / 1000);
  const waiting =
    device.push_registration_error_code === null &&
    device.pending_push_token_id !== null &&
    now - (device.push_token_last_updated_timestamp ?? 0) < REGISTRATION_PATIENCE_SECONDS;
  if (waiting) throw badRequest('A registration for the device already in progress.');
  if (!key && device.push_key_id === null) throw badRequest('No push registration exists to rotate token for.');
  const registered = device.push_registration_error_code === null && device.push_token_id === token.tokenId;
  if (registered && (!key || (device.push_key_id === key.pushKeyId && device.push_key === key.pushKey && device.push_token_kind === token.tokenKind))) {
    return;
  }
  write(stoa, () => {
    const pending = {
      tokenId: token.tokenId,
      bouncerPublicKey: token.bouncerPublicKey,
      encryptedPushRegistration: token.encryptedPushRegistration,
      now,
    };
    stoa.devices.setPendingToken(device.id, pending);
    const changed: Record<string, unknown> = {
      pending_push_token_id: token.tokenId,
      push_token_last_updated_timestamp: now,
      push_registration_error_code: null,
    };
    if (key) {
      stoa.devices.setKey(device.id, key.pushKey, key.pushKeyId);
      stoa.devices.setTokenKind(device.id, token.tokenKind);
      announceDevice(stoa, device, { push_key_id: key.pushKeyId, ...changed });
    } else {
      announceDevice(stoa, device, changed);
    }
  });
  registerWithRelayInBackground(stoa, device.id);
}

function registerWithRelayInBackground(stoa: Stoa, deviceId: number): void {
  inBackground(stoa, `registering the push token of device ${deviceId}`, () => registerWithRelay(stoa, deviceId));
}

/** Registrations a stop interrupted go to the relay once the server is up again. */
export function resumePushRegistrations(stoa: Stoa): void {
  if (!relayConfigured(stoa)) return;
  for (const device of stoa.devices.pendingRegistrations()) registerWithRelayInBackground(stoa, device.id);
}

/** The ID a client gives a token: the first 8 bytes of its SHA-256, in base64. */
function tokenIdOf(token: string): string {
  return createHash('sha256').update(token).digest().subarray(0, 8).toString('base64');
}

async function registerWithRelay(stoa: Stoa, deviceId: number): Promise<void> {
  const device = stoa.devices.byId(deviceId);
  if (!device || device.pending_push_token_id === null || device.pending_encrypted_push_registration === null) return;
  const sent = {
    tokenId: device.pending_push_token_id,
    registration: device.pending_encrypted_push_registration,
  };
  let errorCode: string | undefined;
  try {
    await postToRelay(stoa, 'push/e2ee/register', {
      realm_url: stoa.site,
      realm_uuid: stoa.realm.get()!.uuid,
      token_id: sent.tokenId,
      encrypted_push_registration: sent.registration,
      bouncer_public_key: device.pending_bouncer_public_key,
    });
  } catch (err) {
    // Only the relay's verdict on the registration itself fails it; a relay that is down or
    // refuses the server leaves it pending, to be sent again when the server next starts.
    if (!(err instanceof RelayFailed) || err.failure.kind !== 'device_refused') throw err;
    errorCode = err.failure.code;
  }
  if (!stoa.db.open) return;
  const replacedTokens = write(stoa, () => {
    const current = stoa.devices.byId(deviceId);
    // The device was removed, or a newer registration replaced this one meanwhile.
    if (!current || current.pending_push_token_id !== sent.tokenId || current.pending_encrypted_push_registration !== sent.registration) {
      return [];
    }
    if (errorCode !== undefined) {
      stoa.devices.markFailed(deviceId, errorCode);
      announceDevice(stoa, current, { push_registration_error_code: errorCode });
      return [];
    }
    stoa.devices.markRegistered(deviceId);
    announceDevice(stoa, current, { push_token_id: sent.tokenId, pending_push_token_id: null });
    // The same phone's legacy registration is now redundant (level 483).
    const legacy = stoa.push.tokensOfUser(current.user_id).filter((row) => tokenIdOf(row.token) === sent.tokenId);
    for (const row of legacy) stoa.push.deleteToken(row.id);
    return legacy;
  });
  for (const row of replacedTokens) {
    await postToRelay(stoa, 'push/unregister', { ...relayUser(stoa, row.user_id), token: row.token, token_kind: row.kind }).catch(
      (err: unknown) => stoa.log(`Push: unregistering a legacy token of user ${row.user_id} failed: ${(err as Error).message}`),
    );
  }
}

async function sendEncrypted(
  stoa: Stoa,
  devices: readonly DeviceRow[],
  payload: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const pushRequests = [];
  for (const device of devices) {
    const encrypted = device.push_key === null ? undefined : await sealForDevice(device.push_key, payload);
    if (encrypted === undefined) {
      stoa.log(`Push: device ${device.id} of user ${device.user_id} has an unusable push key; skipped`);
      continue;
    }
    pushRequests.push({ token_id: device.push_token_id, push_key_id: device.push_key_id, encrypted_data: encrypted });
  }
  return { realm_url: stoa.site, realm_uuid: stoa.realm.get()!.uuid, push_requests: pushRequests };
}

/** Tokens the relay no longer knows (uninstalled apps): their devices lose them, as on Zulip. */
function forgetExpiredTokenIds(stoa: Stoa, userId: number, answer: Record<string, unknown>): void {
  const ids = answer.delete_token_ids;
  if (!Array.isArray(ids) || !stoa.db.open) return;
  write(stoa, () => {
    for (const device of stoa.devices.pushable(userId)) {
      if (!ids.includes(device.push_token_id)) continue;
      stoa.devices.forgetToken(device.id);
      announceDevice(stoa, device, { push_token_id: null });
    }
  });
}

/** POST /mobile_push/e2ee/test_notification: to one registered device, or all of them. */
export async function sendEncryptedTestNotification(stoa: Stoa, user: UserRow, deviceId: number | undefined) {
  const devices = stoa.devices.pushable(user.id).filter((d) => deviceId === undefined || d.id === deviceId);
  if (devices.length === 0) throw new ApiError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device');
  const body = await sendEncrypted(stoa, devices, encryptedTestPayload(stoa, user, Math.floor(stoa.clock.now() / 1000)));
  forgetExpiredTokenIds(stoa, user.id, await relayForClient(stoa, 'push/e2ee/notify', body));
}

// ---------------------------------------------------------------------------
// Notifications for new messages
// ---------------------------------------------------------------------------

const NOTIFYING_FLAGS = Flag.is_private | Flag.mentioned;
const WILDCARD_FLAGS = Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned;

/** Zulip's followed topic visibility policy. */
const FOLLOWED = 3;
const MUTED = 1;
const UNMUTED = 2;

/**
 * Whether Zulip would push this unread message to this user: direct messages, mentions and
 * alert words by `enable_offline_push_notifications`; @all mentions where the channel (or the
 * followed topic) lets them notify; followed topics by `enable_followed_topic_push_notifications`;
 * any other message of an unmuted channel by the channel's `push_notifications`, else the
 * user's `enable_stream_push_notifications`.
 */
function wantsPush(stoa: Stoa, user: UserRow, message: MessageRow, bits: number): boolean {
  if (bits & Flag.read) return false;
  const settings = userSettings(stoa, user);
  if (bits & (NOTIFYING_FLAGS | Flag.has_alert_word)) return settings.enable_offline_push_notifications === true;
  if (message.stream_id === null) return false;
  const channel = stoa.channels.byId(message.stream_id);
  const subscription = channel ? stoa.channels.subscription(user.id, channel.recipient_id) : undefined;
  if (!subscription) return false;
  const policy = stoa.userTopics.get(user.id, message.stream_id, message.topic)?.visibility_policy;
  const followed = policy === FOLLOWED;
  if (bits & WILDCARD_FLAGS) {
    const own = subscription.wildcard_mentions_notify;
    const allowed = followed ? settings.enable_followed_topic_wildcard_mentions_notify : own === null ? settings.wildcard_mentions_notify : own === 1;
    if (allowed === true) return settings.enable_offline_push_notifications === true;
  }
  if (followed) return settings.enable_followed_topic_push_notifications === true;
  if (policy === MUTED || (subscription.is_muted === 1 && policy !== UNMUTED)) return false;
  const own = subscription.push_notifications;
  return own === null ? settings.enable_stream_push_notifications === true : own === 1;
}

/** Whether the user has a phone to push to: a legacy token or a registered device. */
function hasPhone(stoa: Stoa, userId: number): boolean {
  return stoa.push.tokensOfUser(userId).length > 0 || stoa.devices.pushable(userId).length > 0;
}

function noticeOf(stoa: Stoa, message: MessageRow, directUserIds: number[]): Notice {
  return {
    message,
    sender: stoa.users.byId(message.sender_id)!,
    directUserIds: message.stream_id === null ? directUserIds : [],
    channelName: message.stream_id === null ? null : (stoa.channels.byId(message.stream_id)?.name ?? null),
  };
}

/**
 * Called by sendMessage for every new message, inside its transaction: picks the recipients
 * to notify and leaves the relay work to run after the commit, without waiting for it.
 */
export function notifyMobileDevices(stoa: Stoa, message: MessageRow, flags: ReadonlyMap<number, number>): void {
  if (!relayConfigured(stoa)) return;
  const recipients: UserRow[] = [];
  for (const [userId, bits] of flags) {
    if (userId === message.sender_id) continue;
    const user = stoa.users.byId(userId);
    if (!user || !user.is_active || user.is_bot) continue;
    if (!hasPhone(stoa, userId)) continue;
    // Someone reading elsewhere sees the message there: their phone is told only if they asked
    // for that (enable_online_push_notifications), as on Zulip. If they never see it there,
    // their phone is told when that client's queue goes (pushWithheldMessages).
    if (!isIdle(stoa, userId) && userSettings(stoa, user).enable_online_push_notifications !== true) continue;
    if (wantsPush(stoa, user, message, bits)) recipients.push(user);
  }
  if (recipients.length === 0) return;
  const notice = noticeOf(stoa, message, [...flags.keys()].sort((a, b) => a - b));
  for (const recipient of recipients) {
    inBackground(stoa, `notifying user ${recipient.id} of message ${message.id}`, () => pushMessage(stoa, recipient, notice));
  }
}

/**
 * Zulip's missedmessage hook, for phones: the user's last open client went without reading
 * these messages (its queue still held them), so those that would have been pushed to someone
 * away, and were not pushed then, are pushed now. `flags` are the user's flags of each message
 * now: one read meanwhile, or already showing on their phone, is left alone.
 */
export function pushWithheldMessages(stoa: Stoa, user: UserRow, messages: ReadonlyArray<{ message: MessageRow; flags: number }>): void {
  if (!relayConfigured(stoa) || !hasPhone(stoa, user.id)) return;
  for (const { message, flags } of messages) {
    if (message.sender_id === user.id || flags & Flag.active_mobile_push_notification) continue;
    if (!wantsPush(stoa, user, message, flags)) continue;
    const direct = message.stream_id === null ? directParticipants(stoa, message.recipient_id).map((u) => u.id) : [];
    const notice = noticeOf(stoa, message, direct.sort((a, b) => a - b));
    inBackground(stoa, `notifying user ${user.id} of message ${message.id}`, () => pushMessage(stoa, user, notice));
  }
}

async function pushMessage(stoa: Stoa, recipient: UserRow, notice: Notice): Promise<void> {
  // The send may have been rolled back with an enclosing transaction; the message may have
  // been read meanwhile. Otherwise its notification is now showing, until withdrawn.
  if (!stoa.db.open || !stoa.messages.byId(notice.message.id)) return;
  if (!write(stoa, () => stoa.push.markNotified(recipient.id, notice.message.id))) return;
  await pushToUser(stoa, recipient, { ...messagePayloads(stoa, recipient, notice), priority: 'high' }, encryptedMessagePayload(stoa, recipient, notice));
}

/** Sends one notification to all of the user's phones: legacy tokens, then registered devices. */
async function pushToUser(
  stoa: Stoa,
  recipient: UserRow,
  legacy: { apns: Record<string, unknown>; gcm: Record<string, unknown>; priority: 'high' | 'normal' },
  encrypted: Record<string, unknown>,
): Promise<void> {
  const tokens = stoa.push.tokensOfUser(recipient.id);
  if (tokens.length > 0) {
    const answer = await postToRelay(stoa, 'push/notify', {
      ...relayUser(stoa, recipient.id),
      ...devicesByKind(tokens),
      apns_payload: legacy.apns,
      gcm_payload: legacy.gcm,
      gcm_options: { priority: legacy.priority },
    });
    forgetDeletedTokens(stoa, answer);
  }
  const devices = stoa.devices.pushable(recipient.id);
  if (devices.length > 0) {
    const body = await sendEncrypted(stoa, devices, encrypted);
    forgetExpiredTokenIds(stoa, recipient.id, await postToRelay(stoa, 'push/e2ee/notify', body));
  }
}

// ---------------------------------------------------------------------------
// Withdrawing notifications ("remove" notifications)
// ---------------------------------------------------------------------------

/**
 * Withdraws the notifications still showing for these messages, as Zulip does when they are
 * read, deleted, or no longer reach the user: each user concerned is sent one "remove"
 * notification after the commit, and the messages stop counting as notified. `userIds` null
 * means everyone who was notified (a deletion). Call inside `write`, before any of the users'
 * copies of the messages are deleted.
 */
export function withdrawPushNotifications(stoa: Stoa, userIds: readonly number[] | null, messageIds: readonly number[]): void {
  if (messageIds.length === 0) return;
  if (userIds === null) return withdraw(stoa, stoa.push.showingOfMessages(messageIds));
  withdraw(
    stoa,
    [...new Set(userIds)].sort((a, b) => a - b).flatMap((userId) => stoa.push.showingOfUserMessages(userId, messageIds)),
  );
}

/** Withdraws every notification showing on the user's phones (they marked everything read). */
export function withdrawAllPushNotifications(stoa: Stoa, userId: number): void {
  withdraw(stoa, stoa.push.showingOfUser(userId));
}

function withdraw(stoa: Stoa, showing: ReadonlyArray<{ user_id: number; message_id: number }>): void {
  const byUser = new Map<number, number[]>();
  for (const { user_id: userId, message_id: messageId } of showing) {
    stoa.push.clearShowing(userId, messageId);
    byUser.set(userId, [...(byUser.get(userId) ?? []), messageId]);
  }
  if (!relayConfigured(stoa)) return;
  for (const [userId, messageIds] of byUser) {
    inBackground(stoa, `withdrawing notifications of user ${userId}`, () => pushRemoval(stoa, userId, removedIds(messageIds)));
  }
}

async function pushRemoval(stoa: Stoa, userId: number, messageIds: number[]): Promise<void> {
  const user = stoa.db.open ? stoa.users.byId(userId) : undefined;
  if (!user) return;
  // The messages may be gone: the IDs are all the phone needs.
  await pushToUser(stoa, user, { ...removalPayloads(stoa, user, messageIds), priority: 'normal' }, encryptedRemovalPayload(stoa, user, messageIds));
}
