import type { Event } from '../events/queues';
import { sendEvent, write } from '../events/send';
import { ApiError, badRequest } from '../http/errors';
import { Flag } from '../messages/flags';
import type { MessageRow } from '../messages/queries';
import type { Stoa } from '../stoa';
import { userSettings } from '../users/settings-store';
import type { UserRow } from '../users/queries';
import { inBackground } from './background';
import { sealForDevice } from './encryption';
import { encryptedMessagePayload, encryptedTestPayload, messagePayloads, testPayloads, type Notice } from './payloads';
import { deviceStatus, TokenKind, type NewPushDevice, type PushDeviceRow, type PushTokenRow, type TokenKindValue } from './queries';
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

function announceStatus(stoa: Stoa, device: PushDeviceRow): void {
  const status = deviceStatus(device);
  // push_account_id is a string in these events until level 450.
  const event: Event = { type: 'push_device', push_account_id: String(device.push_account_id), status };
  if (status === 'failed') event.error_code = device.error_code;
  sendEvent(stoa, event, [device.user_id]);
}

/**
 * POST /mobile_push/register: the device is pending until the relay accepts it; the outcome
 * reaches the user's clients as a `push_device` event. Registering the same keys again is a
 * no-op once the relay accepted them.
 */
export function registerPushDevice(stoa: Stoa, device: NewPushDevice): void {
  const existing = stoa.push.deviceOfUser(device.user_id, device.push_account_id);
  const unchanged =
    existing !== undefined &&
    existing.error_code === null &&
    existing.token_kind === device.token_kind &&
    existing.push_public_key === device.push_public_key &&
    existing.encrypted_push_registration === device.encrypted_push_registration;
  if (unchanged && existing.relay_device_id !== null) return;
  const row = write(stoa, () => stoa.push.upsertDevice(device));
  inBackground(stoa, `registering push device ${row.push_account_id} of user ${row.user_id}`, () =>
    registerWithRelay(stoa, row.id),
  );
}

async function registerWithRelay(stoa: Stoa, deviceId: number): Promise<void> {
  const device = stoa.push.deviceById(deviceId);
  if (!device) return;
  let outcome: { relayDeviceId: number } | { errorCode: string };
  try {
    const answer = await postToRelay(stoa, 'push/e2ee/register', {
      realm_url: stoa.site,
      push_account_id: device.push_account_id,
      encrypted_push_registration: device.encrypted_push_registration,
      bouncer_public_key: device.bouncer_public_key,
    });
    if (typeof answer.device_id !== 'number') throw new Error('the relay answered without a device_id');
    outcome = { relayDeviceId: answer.device_id };
  } catch (err) {
    // Only the relay's verdict on the registration itself fails it; a relay that is down or
    // refuses the server leaves it pending, and the app registers again when it next starts.
    if (!(err instanceof RelayFailed) || err.failure.kind !== 'device_refused') throw err;
    outcome = { errorCode: err.failure.code };
  }
  if (!stoa.db.open) return;
  write(stoa, () => {
    const current = stoa.push.deviceById(deviceId);
    // A newer registration of the same account replaced this one meanwhile.
    if (!current || current.encrypted_push_registration !== device.encrypted_push_registration) return;
    if ('relayDeviceId' in outcome) stoa.push.markActive(deviceId, outcome.relayDeviceId);
    else stoa.push.markFailed(deviceId, outcome.errorCode);
    announceStatus(stoa, stoa.push.deviceById(deviceId)!);
  });
}

async function sendEncrypted(
  stoa: Stoa,
  devices: readonly PushDeviceRow[],
  payload: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const pushRequests = [];
  for (const device of devices) {
    const encrypted = await sealForDevice(device.push_public_key, payload);
    if (encrypted === undefined) {
      stoa.log(`Push: device ${device.push_account_id} of user ${device.user_id} has an unusable public key; skipped`);
      continue;
    }
    pushRequests.push({ device_id: device.relay_device_id, push_account_id: device.push_account_id, encrypted_data: encrypted });
  }
  return { realm_url: stoa.site, push_requests: pushRequests };
}

/** Devices the relay no longer knows (uninstalled apps): forget them. */
function forgetDeletedDevices(stoa: Stoa, answer: Record<string, unknown>): void {
  const ids = answer.delete_device_ids;
  if (!Array.isArray(ids) || !stoa.db.open) return;
  write(stoa, () => {
    for (const id of ids) if (typeof id === 'number') stoa.push.deleteByRelayId(id);
  });
}

/** POST /mobile_push/e2ee/test_notification: to one registered device, or all of them. */
export async function sendEncryptedTestNotification(stoa: Stoa, user: UserRow, pushAccountId: number | undefined) {
  const devices = stoa.push
    .devicesOfUser(user.id)
    .filter((d) => d.relay_device_id !== null && (pushAccountId === undefined || d.push_account_id === pushAccountId));
  if (devices.length === 0) throw new ApiError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device');
  const body = await sendEncrypted(stoa, devices, encryptedTestPayload(stoa, user, Math.floor(stoa.clock.now() / 1000)));
  forgetDeletedDevices(stoa, await relayForClient(stoa, 'push/e2ee/notify', body));
}

// ---------------------------------------------------------------------------
// Notifications for new messages
// ---------------------------------------------------------------------------

const NOTIFYING_FLAGS = Flag.is_private | Flag.mentioned;
const WILDCARD_FLAGS = Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned;

/** Whether Zulip would push this message to this user: direct messages and mentions, unread. */
function wantsPush(stoa: Stoa, user: UserRow, bits: number): boolean {
  if (bits & Flag.read) return false;
  if (!(bits & (NOTIFYING_FLAGS | WILDCARD_FLAGS))) return false;
  const settings = userSettings(stoa, user);
  if (settings.enable_offline_push_notifications !== true) return false;
  if (!(bits & NOTIFYING_FLAGS) && settings.wildcard_mentions_notify !== true) return false;
  return true;
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
    if (stoa.push.tokensOfUser(userId).length === 0 && !stoa.push.devicesOfUser(userId).some((d) => d.relay_device_id !== null)) continue;
    if (wantsPush(stoa, user, bits)) recipients.push(user);
  }
  if (recipients.length === 0) return;
  const notice: Notice = {
    message,
    sender: stoa.users.byId(message.sender_id)!,
    directUserIds: message.stream_id === null ? [...flags.keys()].sort((a, b) => a - b) : [],
    channelName: message.stream_id === null ? null : (stoa.channels.byId(message.stream_id)?.name ?? null),
  };
  for (const recipient of recipients) {
    inBackground(stoa, `notifying user ${recipient.id} of message ${message.id}`, () => pushMessage(stoa, recipient, notice));
  }
}

async function pushMessage(stoa: Stoa, recipient: UserRow, notice: Notice): Promise<void> {
  // The send may have been rolled back with an enclosing transaction.
  if (!stoa.db.open || !stoa.messages.byId(notice.message.id)) return;
  const tokens = stoa.push.tokensOfUser(recipient.id);
  if (tokens.length > 0) {
    const payloads = messagePayloads(stoa, recipient, notice);
    const answer = await postToRelay(stoa, 'push/notify', {
      ...relayUser(stoa, recipient.id),
      ...devicesByKind(tokens),
      apns_payload: payloads.apns,
      gcm_payload: payloads.gcm,
      gcm_options: { priority: 'high' },
    });
    forgetDeletedTokens(stoa, answer);
  }
  const devices = stoa.push.devicesOfUser(recipient.id).filter((d) => d.relay_device_id !== null);
  if (devices.length > 0) {
    const body = await sendEncrypted(stoa, devices, encryptedMessagePayload(stoa, recipient, notice));
    forgetDeletedDevices(stoa, await postToRelay(stoa, 'push/e2ee/notify', body));
  }
}
