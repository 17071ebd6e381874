import { sendEvent, write } from '../events/send';
import type { StateContext } from '../events/state-context';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { badRequest } from '../http/errors';
import { removeDevice } from './actions';
import { presentDevice } from './queries';

/**
 * Logged-in devices (Zulip's level 468 and 470): a phone registers itself when it logs in and
 * removes itself when it logs out. Each of the user's clients hears of both, and register's
 * `devices` lists them, keyed by device ID.
 */

export const registerClientDevice = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => {
    const deviceId = write(stoa, () => {
      const id = stoa.devices.insert(user.id);
      sendEvent(stoa, { type: 'device', op: 'add', device_id: id }, [user.id]);
      return id;
    });
    return { device_id: deviceId };
  },
});

export const removeClientDevice = endpoint<{ device_id: number }>({
  params: { properties: { device_id: { type: 'integer' } }, required: ['device_id'] },
  view: ({ stoa, user, params }) => {
    if (!stoa.devices.get(user.id, params.device_id)) throw badRequest('Invalid `device_id`');
    write(stoa, () => removeDevice(stoa, user.id, params.device_id));
    return {};
  },
});

/** Register state for fetch type `device`. */
export function devicesState({ stoa, user }: StateContext): Record<string, unknown> {
  return { devices: Object.fromEntries(stoa.devices.ofUser(user.id).map((row) => [String(row.id), presentDevice(row)])) };
}
