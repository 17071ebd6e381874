/** Where the server reads the time, so tests can move it (queue expiry, heartbeats, presence, scheduled messages). */
export interface Clock {
  /** Milliseconds since the UNIX epoch. */
  now(): number;
  /**
   * Calls fn once, when the clock reads `atMs` or later (soon after, if that is already
   * past); answers a function that cancels it. Never calls fn synchronously.
   */
  at(atMs: number, fn: () => void): () => void;
}

/** setTimeout takes at most this delay (about 24.8 days); a later time is reached in steps. */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  at(atMs, fn) {
    let timer: NodeJS.Timeout;
    const arm = () => {
      const wait = atMs - Date.now();
      if (wait <= 0) return fn();
      // Unreferenced: a pending delivery alone must not keep a stopped server's process alive.
      timer = setTimeout(arm, Math.min(wait, LONGEST_TIMEOUT_MS)).unref();
    };
    timer = setTimeout(arm, Math.max(0, Math.min(atMs - Date.now(), LONGEST_TIMEOUT_MS))).unref();
    return () => clearTimeout(timer);
  },
};

export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
