import type { Statements } from '../db';

export interface DeviceRow {
  id: number;
  user_id: number;
  push_key_id: number | null;
  push_token_id: string | null;
  pending_push_token_id: string | null;
  push_token_last_updated_timestamp: number | null;
  push_registration_error_code: string | null;
}

export function prepareDeviceQueries(db: Statements) {
  const ofUser = db.prepare<[number], DeviceRow>('SELECT * FROM client_devices WHERE user_id = ? ORDER BY id');
  const get = db.prepare<[number, number], DeviceRow>('SELECT * FROM client_devices WHERE id = ? AND user_id = ?');
  const insert = db.prepare<[number]>('INSERT INTO client_devices (user_id) VALUES (?)');
  const remove = db.prepare<[number]>('DELETE FROM client_devices WHERE id = ?');
  return {
    ofUser: (userId: number) => ofUser.all(userId),
    /** One of the user's devices; another user's is as good as missing. */
    get: (userId: number, deviceId: number) => get.get(deviceId, userId),
    insert: (userId: number) => Number(insert.run(userId).lastInsertRowid),
    remove: (deviceId: number) => void remove.run(deviceId),
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
