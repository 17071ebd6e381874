import type { Statements } from '../db';

export interface DeviceRow {
  id: number;
  user_id: number;
  push_key_id: number | null;
  /** Token IDs are kept as the client sent them: base64 of 8 bytes of the token's hash. */
  push_token_id: string | null;
  pending_push_token_id: string | null;
  push_token_last_updated_timestamp: number | null;
  push_registration_error_code: string | null;
  push_key: string | null;
  push_token_kind: 'fcm' | 'apns' | null;
  pending_bouncer_public_key: string | null;
  pending_encrypted_push_registration: string | null;
}

/** A token registration on its way to the relay. */
export interface PendingToken {
  tokenId: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
  /** UNIX seconds. */
  now: number;
}

export function prepareDeviceQueries(db: Statements) {
  const ofUser = db.prepare<[number], DeviceRow>('SELECT * FROM client_devices WHERE user_id = ? ORDER BY id');
  const get = db.prepare<[number, number], DeviceRow>('SELECT * FROM client_devices WHERE id = ? AND user_id = ?');
  const byId = db.prepare<[number], DeviceRow>('SELECT * FROM client_devices WHERE id = ?');
  const insert = db.prepare<[number]>('INSERT INTO client_devices (user_id) VALUES (?)');
  const remove = db.prepare<[number]>('DELETE FROM client_devices WHERE id = ?');
  const pushable = db.prepare<[number], DeviceRow>(
    'SELECT * FROM client_devices WHERE user_id = ? AND push_token_id IS NOT NULL ORDER BY id',
  );
  const pendingRegistrations = db.prepare<[], DeviceRow>(
    `SELECT * FROM client_devices WHERE pending_push_token_id IS NOT NULL AND push_registration_error_code IS NULL
       AND pending_encrypted_push_registration IS NOT NULL ORDER BY id`,
  );
  const setKey = db.prepare<[string, number, number]>('UPDATE client_devices SET push_key = ?, push_key_id = ? WHERE id = ?');
  const setKind = db.prepare<[string, number]>('UPDATE client_devices SET push_token_kind = ? WHERE id = ?');
  const setPending = db.prepare<[string, number, string, string, number]>(
    `UPDATE client_devices SET pending_push_token_id = ?, push_token_last_updated_timestamp = ?,
       push_registration_error_code = NULL, pending_bouncer_public_key = ?, pending_encrypted_push_registration = ?
     WHERE id = ?`,
  );
  const markRegistered = db.prepare<[number]>(
    `UPDATE client_devices SET push_token_id = pending_push_token_id, pending_push_token_id = NULL,
       pending_bouncer_public_key = NULL, pending_encrypted_push_registration = NULL WHERE id = ?`,
  );
  const markFailed = db.prepare<[string, number]>(
    `UPDATE client_devices SET push_registration_error_code = ?, pending_bouncer_public_key = NULL,
       pending_encrypted_push_registration = NULL WHERE id = ?`,
  );
  const forgetToken = db.prepare<[number]>('UPDATE client_devices SET push_token_id = NULL WHERE id = ?');
  return {
    ofUser: (userId: number) => ofUser.all(userId),
    /** One of the user's devices; another user's is as good as missing. */
    get: (userId: number, deviceId: number) => get.get(deviceId, userId),
    byId: (deviceId: number) => byId.get(deviceId),
    insert: (userId: number) => Number(insert.run(userId).lastInsertRowid),
    remove: (deviceId: number) => void remove.run(deviceId),
    /** The user's devices the relay has accepted a token for. */
    pushable: (userId: number) => pushable.all(userId),
    /** Registrations still to be sent to the relay (a restart interrupted them). */
    pendingRegistrations: () => pendingRegistrations.all(),
    setKey: (deviceId: number, pushKey: string, pushKeyId: number) => void setKey.run(pushKey, pushKeyId, deviceId),
    setTokenKind: (deviceId: number, kind: 'fcm' | 'apns') => void setKind.run(kind, deviceId),
    setPendingToken: (deviceId: number, pending: PendingToken) =>
      void setPending.run(pending.tokenId, pending.now, pending.bouncerPublicKey, pending.encryptedPushRegistration, deviceId),
    /** The relay accepted the pending token: it becomes the device's token. */
    markRegistered: (deviceId: number) => void markRegistered.run(deviceId),
    markFailed: (deviceId: number, errorCode: string) => void markFailed.run(errorCode, deviceId),
    /** The relay no longer knows the token (the app was uninstalled). */
    forgetToken: (deviceId: number) => void forgetToken.run(deviceId),
  };
}

/** A device as register's `devices` shows it (without its ID, which is its key there). */
export function presentDevice(row: DeviceRow): Record<string, unknown> {
  return {
    push_key_id: row.push_key_id,
    push_token_id: row.push_token_id,
    pending_push_token_id: row.pending_push_token_id,
    push_token_last_updated_timestamp: row.push_token_last_updated_timestamp,
    push_registration_error_code: row.push_registration_error_code,
  };
}
