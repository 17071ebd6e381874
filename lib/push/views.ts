import type { StateContext } from '../events/state-context';
import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import { deviceStatus, TokenKind } from './queries';
import {
  addPushToken,
  pushServiceNotConfigured,
  registerPushDevice,
  removePushToken,
  sendEncryptedTestNotification,
  sendTestNotification,
} from './actions';
import { relayConfigured } from './relay';

/** Zulip's bound on a token's length; real ones are far shorter. */
const MAX_TOKEN_LENGTH = 4096;

const TOKEN = { properties: { token: { type: 'string' } }, required: ['token'] } as const;

function checkedToken(token: string): string {
  if (token === '' || token.length > MAX_TOKEN_LENGTH) throw badRequest('Empty or invalid length token');
  return token;
}

/**
 * APNs tokens arrive as base64 or hex; as Zulip does, accept anything that decodes as base64
 * once characters outside its alphabet are dropped (hex digits are all in that alphabet).
 */
function checkedApnsToken(token: string): string {
  checkedToken(token);
  const letters = token.replace(/[^A-Za-z0-9+/]/g, '').length;
  const padding = (/=*$/.exec(token)?.[0] ?? '').length;
  const complete = letters % 4 === 0 || (letters % 4 === 2 && padding >= 2) || (letters % 4 === 3 && padding >= 1);
  if (!complete) throw badRequest('Invalid APNS token');
  return token;
}

export const addApnsToken = endpoint<{ token: string; appid: string }>({
  params: { properties: { token: { type: 'string' }, appid: { type: 'string' } }, required: ['token', 'appid'] },
  view: async ({ stoa, user, params }) => {
    await addPushToken(stoa, user, TokenKind.apns, checkedApnsToken(params.token), params.appid);
    return {};
  },
});

export const removeApnsToken = endpoint<{ token: string }>({
  params: TOKEN,
  view: async ({ stoa, user, params }) => {
    await removePushToken(stoa, user, checkedApnsToken(params.token), TokenKind.apns);
    return {};
  },
});

export const addFcmToken = endpoint<{ token: string }>({
  params: TOKEN,
  view: async ({ stoa, user, params }) => {
    await addPushToken(stoa, user, TokenKind.fcm, checkedToken(params.token), null);
    return {};
  },
});

export const removeFcmToken = endpoint<{ token: string }>({
  params: TOKEN,
  view: async ({ stoa, user, params }) => {
    await removePushToken(stoa, user, checkedToken(params.token), TokenKind.fcm);
    return {};
  },
});

/** The specification's one endpoint for removing a token, whichever service issued it. */
export const removePlatformToken = endpoint<{ token: string }>({
  params: TOKEN,
  view: async ({ stoa, user, params }) => {
    await removePushToken(stoa, user, checkedToken(params.token));
    return {};
  },
});

export const testNotification = endpoint<{ token?: string }>({
  params: { properties: { token: { type: 'string' } } },
  view: async ({ stoa, user, params }) => {
    await sendTestNotification(stoa, user, params.token);
    return {};
  },
});

export const encryptedTestNotification = endpoint<{ push_account_id?: number }>({
  params: { properties: { push_account_id: { type: 'integer' } } },
  view: async ({ stoa, user, params }) => {
    await sendEncryptedTestNotification(stoa, user, params.push_account_id);
    return {};
  },
});

interface RegisterDeviceParams {
  token_kind: 'fcm' | 'apns';
  push_account_id: number;
  push_public_key: string;
  bouncer_public_key: string;
  encrypted_push_registration: string;
}

export const registerDevice = endpoint<RegisterDeviceParams>({
  params: {
    properties: {
      token_kind: { type: 'string', enum: ['fcm', 'apns'] },
      push_account_id: { type: 'integer' },
      push_public_key: { type: 'string' },
      bouncer_public_key: { type: 'string' },
      encrypted_push_registration: { type: 'string' },
    },
    required: ['token_kind', 'push_account_id', 'push_public_key', 'bouncer_public_key', 'encrypted_push_registration'],
  },
  view: ({ stoa, user, params }) => {
    if (!relayConfigured(stoa)) throw pushServiceNotConfigured();
    registerPushDevice(stoa, { user_id: user.id, ...params });
    return {};
  },
});

/** Register state for fetch type `push_device`: each registered device's status, by push account. */
export function pushDevicesState({ stoa, user }: StateContext): Record<string, unknown> {
  const devices: Record<string, { status: string; error_code: string | null }> = {};
  for (const device of stoa.push.devicesOfUser(user.id)) {
    devices[String(device.push_account_id)] = { status: deviceStatus(device), error_code: device.error_code };
  }
  return { push_devices: devices };
}
