import { sendEvent } from '../events/send';
import type { Stoa } from '../stoa';

/** Forgets a device, and its push registration with it, telling the user's clients; inside a write. */
export function removeDevice(stoa: Stoa, userId: number, deviceId: number): void {
  stoa.devices.remove(deviceId);
  sendEvent(stoa, { type: 'device', op: 'remove', device_id: deviceId }, [userId]);
}
