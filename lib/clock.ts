/** Where the server reads the time, so tests can move it (queue expiry, heartbeats, presence). */
export interface Clock {
  /** Milliseconds since the UNIX epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
