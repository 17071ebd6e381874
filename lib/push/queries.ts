import type { Statements } from '../db';

/** Zulip's numbering of token kinds, used in the relay protocol too. */
export const TokenKind = { apns: 1, fcm: 2 } as const;
export type TokenKindValue = (typeof TokenKind)[keyof typeof TokenKind];

export interface PushTokenRow {
  id: number;
  user_id: number;
  kind: TokenKindValue;
  token: string;
  ios_app_id: string | null;
  last_updated: number;
}

export interface PushDeviceRow {
  id: number;
  user_id: number;
  push_account_id: number;
  token_kind: 'fcm' | 'apns';
  push_public_key: string;
  bouncer_public_key: string;
  encrypted_push_registration: string;
  relay_device_id: number | null;
  error_code: string | null;
}

export type NewPushDevice = Omit<PushDeviceRow, 'id' | 'relay_device_id' | 'error_code'>;

export function preparePushQueries(db: Statements) {
  const tokensOfUser = db.prepare<[number], PushTokenRow>('SELECT * FROM push_device_tokens WHERE user_id = ? ORDER BY id');
  const tokenOfUser = db.prepare<[number, string], PushTokenRow>(
    'SELECT * FROM push_device_tokens WHERE user_id = ? AND token = ? ORDER BY id LIMIT 1',
  );
  const tokenOfUserByKind = db.prepare<[number, string, number], PushTokenRow>(
    'SELECT * FROM push_device_tokens WHERE user_id = ? AND token = ? AND kind = ?',
  );
  const upsertToken = db.prepare<[number, number, string, string | null, number]>(
    `INSERT INTO push_device_tokens (user_id, kind, token, ios_app_id, last_updated) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (token, kind) DO UPDATE SET user_id = excluded.user_id, ios_app_id = excluded.ios_app_id,
       last_updated = excluded.last_updated`,
  );
  const deleteToken = db.prepare<[number]>('DELETE FROM push_device_tokens WHERE id = ?');
  const deleteTokenByValue = db.prepare<[string, number]>('DELETE FROM push_device_tokens WHERE token = ? AND kind = ?');

  const devicesOfUser = db.prepare<[number], PushDeviceRow>('SELECT * FROM push_devices WHERE user_id = ? ORDER BY id');
  const deviceOfUser = db.prepare<[number, number], PushDeviceRow>(
    'SELECT * FROM push_devices WHERE user_id = ? AND push_account_id = ?',
  );
  const upsertDevice = db.prepare<[number, number, string, string, string, string]>(
    `INSERT INTO push_devices (user_id, push_account_id, token_kind, push_public_key, bouncer_public_key,
       encrypted_push_registration) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, push_account_id) DO UPDATE SET token_kind = excluded.token_kind,
       push_public_key = excluded.push_public_key, bouncer_public_key = excluded.bouncer_public_key,
       encrypted_push_registration = excluded.encrypted_push_registration, relay_device_id = NULL, error_code = NULL`,
  );
  const markActive = db.prepare<[number, number]>('UPDATE push_devices SET relay_device_id = ?, error_code = NULL WHERE id = ?');
  const markFailed = db.prepare<[string, number]>('UPDATE push_devices SET error_code = ? WHERE id = ?');
  const deleteByRelayId = db.prepare<[number]>('DELETE FROM push_devices WHERE relay_device_id = ?');
  const deviceById = db.prepare<[number], PushDeviceRow>('SELECT * FROM push_devices WHERE id = ?');
  const deleteTokensOfUser = db.prepare<[number]>('DELETE FROM push_device_tokens WHERE user_id = ?');
  const deleteDevicesOfUser = db.prepare<[number]>('DELETE FROM push_devices WHERE user_id = ?');

  return {
    tokensOfUser: (userId: number) => tokensOfUser.all(userId),
    /** The user's token with this value, of either kind. */
    tokenOfUser: (userId: number, token: string) => tokenOfUser.get(userId, token),
    tokenOfUserByKind: (userId: number, token: string, kind: TokenKindValue) => tokenOfUserByKind.get(userId, token, kind),
    /** Adds the token, or moves it to this user if another account on the same phone had it. */
    upsertToken: (userId: number, kind: TokenKindValue, token: string, iosAppId: string | null, now: number) =>
      void upsertToken.run(userId, kind, token, iosAppId, now),
    deleteToken: (id: number) => void deleteToken.run(id),
    deleteTokenByValue: (token: string, kind: TokenKindValue) => deleteTokenByValue.run(token, kind).changes > 0,

    devicesOfUser: (userId: number) => devicesOfUser.all(userId),
    deviceOfUser: (userId: number, pushAccountId: number) => deviceOfUser.get(userId, pushAccountId),
    deviceById: (id: number) => deviceById.get(id),
    /** Registers the device afresh (pending), replacing an earlier registration of the same account. */
    upsertDevice: (device: NewPushDevice): PushDeviceRow => {
      upsertDevice.run(
        device.user_id,
        device.push_account_id,
        device.token_kind,
        device.push_public_key,
        device.bouncer_public_key,
        device.encrypted_push_registration,
      );
      return deviceOfUser.get(device.user_id, device.push_account_id)!;
    },
    markActive: (id: number, relayDeviceId: number) => void markActive.run(relayDeviceId, id),
    markFailed: (id: number, errorCode: string) => void markFailed.run(errorCode, id),
    deleteByRelayId: (relayDeviceId: number) => void deleteByRelayId.run(relayDeviceId),
    /** Forgets every phone of the user, both kinds of registration: their API key changed, so those apps are logged out. */
    forgetUser: (userId: number) => {
      deleteTokensOfUser.run(userId);
      deleteDevicesOfUser.run(userId);
    },
  };
}

/** A device's registration as clients see it in `push_devices` and `push_device` events. */
export function deviceStatus(device: PushDeviceRow): 'active' | 'failed' | 'pending' {
  if (device.relay_device_id !== null) return 'active';
  return device.error_code !== null ? 'failed' : 'pending';
}
