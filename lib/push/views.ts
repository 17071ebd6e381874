import { endpoint } from '../http/endpoint';
import { refuseBots } from '../users/access';
import { badRequest } from '../http/errors';
import { decodePushKey, isStandardBase64 } from './encryption';
import { TokenKind } from './queries';
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
  authorize: refuseBots,
  view: async ({ stoa, user, params }) => {
    await addPushToken(stoa, user, TokenKind.apns, checkedApnsToken(params.token), params.appid);
    return {};
  },
});

export const removeApnsToken = endpoint<{ token: string }>({
  params: TOKEN,
  authorize: refuseBots,
  view: async ({ stoa, user, params }) => {
    await removePushToken(stoa, user, checkedApnsToken(params.token), TokenKind.apns);
    return {};
  },
});

export const addFcmToken = endpoint<{ token: string }>({
  params: TOKEN,
  authorize: refuseBots,
  view: async ({ stoa, user, params }) => {
    await addPushToken(stoa, user, TokenKind.fcm, checkedToken(params.token), null);
    return {};
  },
});

export const removeFcmToken = endpoint<{ token: string }>({
  params: TOKEN,
  authorize: refuseBots,
  view: async ({ stoa, user, params }) => {
    await removePushToken(stoa, user, checkedToken(params.token), TokenKind.fcm);
    return {};
  },
});

/** The specification's one endpoint for removing a token, whichever service issued it. */
export const removePlatformToken = endpoint<{ token: string }>({
  params: TOKEN,
  authorize: refuseBots,
  view: async ({ stoa, user, params }) => {
    await removePushToken(stoa, user, checkedToken(params.token));
    return {};
  },
});

export const testNotification = endpoint<{ token?: string }>({
  params: { properties: { token: { type: 'string' } } },
  authorize: refuseBots,
  view: async ({ stoa, user, params }) => {
    await sendTestNotification(stoa, user, params.token);
    return {};
  },
});

export const encryptedTestNotification = endpoint<{ device_id?: number }>({
  params: { properties: { device_id: { type: 'integer' } } },
  authorize: refuseBots,
  view: async ({ stoa, user, params }) => {
    await sendEncryptedTestNotification(stoa, user, params.device_id);
    return {};
  },
});

interface RegisterDeviceParams {
  device_id: number;
  push_key?: string;
  push_key_id?: number;
  token_kind?: 'fcm' | 'apns';
  token_id?: string;
  bouncer_public_key?: string;
  encrypted_push_registration?: string;
}

/**
 * POST /mobile_push/register (level 468): the key fields (push_key, push_key_id) and the token
 * fields (token_kind, token_id, bouncer_public_key, encrypted_push_registration) each come
 * whole or not at all; a group sent only in part is ignored, as Zulip ignores it.
 */
export const registerDevice = endpoint<RegisterDeviceParams>({
  params: {
    properties: {
      device_id: { type: 'integer' },
      push_key: { type: 'string' },
      push_key_id: { type: 'integer', minimum: 0, maximum: 0xffffffff },
      token_kind: { type: 'string', enum: ['fcm', 'apns'] },
      token_id: { type: 'string' },
      bouncer_public_key: { type: 'string' },
      encrypted_push_registration: { type: 'string' },
    },
    required: ['device_id'],
  },
  authorize: refuseBots,
  view: ({ stoa, user, params }) => {
    if (!relayConfigured(stoa)) throw pushServiceNotConfigured();
    const device = stoa.devices.get(user.id, params.device_id);
    if (!device) throw badRequest('Invalid `device_id`');
    const { push_key, push_key_id, token_kind, token_id, bouncer_public_key, encrypted_push_registration } = params;
    const key = push_key !== undefined && push_key_id !== undefined ? { pushKey: push_key, pushKeyId: push_key_id } : undefined;
    const token =
      token_kind !== undefined && token_id !== undefined && bouncer_public_key !== undefined && encrypted_push_registration !== undefined
        ? { tokenKind: token_kind, tokenId: token_id, bouncerPublicKey: bouncer_public_key, encryptedPushRegistration: encrypted_push_registration }
        : undefined;
    if (!key && !token) {
      throw badRequest('Missing parameters: must provide either all push key fields, all token fields, or both.');
    }
    if (key && !decodePushKey(key.pushKey)) throw badRequest('Invalid `push_key`');
    if (token && !isStandardBase64(token.tokenId)) throw badRequest('`token_id` is not Base64 encoded');
    registerPushDevice(stoa, device, key, token);
    return {};
  },
});
