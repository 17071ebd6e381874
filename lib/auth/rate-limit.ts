import type { Clock } from '../clock';

/** How many failures a key may have within the window before it has to wait. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/**
 * Counts failures (wrong passwords) by key in memory, and says how long a key that had too
 * many within the window must wait. In memory on purpose: a restart forgets, which costs an
 * attacker a restart per few guesses, and nothing is written on the path a flood takes.
 */
export class FailureLimiter {
  // Failure times by key, oldest first, never more than the limit's max of them.
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: RateLimit,
    /** Keys kept at most; past that the least recently failed key is forgotten. */
    private readonly maxKeys = 10_000,
  ) {}

  /** Seconds the key must still wait, or 0 when it may try now. */
  waitSeconds(key: string): number {
    const times = this.recent(key);
    if (times.length < this.limit.max) return 0;
    return Math.max(1, Math.ceil((times[0] + this.limit.windowMs - this.clock.now()) / 1000));
  }

  recordFailure(key: string): void {
    const times = this.recent(key);
    times.push(this.clock.now());
    if (times.length > this.limit.max) times.shift();
    // Re-inserted, so the map's order is least recently failed first.
    this.failures.delete(key);
    this.failures.set(key, times);
    if (this.failures.size > this.maxKeys) this.failures.delete(this.failures.keys().next().value!);
  }

  private recent(key: string): number[] {
    const times = this.failures.get(key) ?? [];
    const cutoff = this.clock.now() - this.limit.windowMs;
    while (times.length > 0 && times[0] <= cutoff) times.shift();
    if (times.length === 0) this.failures.delete(key);
    return times;
  }
}
