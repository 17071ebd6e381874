/** Messages between the event benchmark's processes: driver, server and load client. */

/** The organization owner the event benchmark's server is created with. */
export const BENCH_OWNER = { email: 'owner@bench.local', password: 'bench-owner-password' };

export interface Credentials {
  email: string;
  apiKey: string;
}

export type ToLoadClient =
  | { type: 'setup'; url: string; maxSockets: number }
  | { type: 'register-idle'; users: Credentials[]; count: number }
  | { type: 'delete-idle' }
  | { type: 'register-and-park'; users: Credentials[]; count: number }
  | { type: 'repoll' }
  | { type: 'exit' };

export type FromLoadClient =
  | { type: 'ready' }
  | { type: 'registered' }
  | { type: 'deleted' }
  /** Every poll has been sent (the server side decides when they are parked). */
  | { type: 'parking' }
  /** When each poll received this round's event: wall-clock ms, fractional. */
  | { type: 'received'; times: number[] }
  | { type: 'error'; message: string };

/** From the event benchmark's driver to its server process (bench/event-server.ts). */
export type ToServer =
  | { type: 'await-parked'; count: number }
  /** The bare server only: answer every parked poll with one event. */
  | { type: 'fire' }
  | { type: 'memory' }
  | { type: 'exit' };

export type FromServer =
  | { type: 'listening'; url: string }
  /** At least the awaited number of polls are open on the server. */
  | { type: 'parked' }
  /** One fan-out, timed inside the server from the commit (monotonic ms) to each answer's 'finish'. */
  | { type: 'answered'; startedAtWallMs: number; polls: number; firstAnswerMs: number; allAnsweredMs: number; cpuMs: number }
  /** After two full collections. */
  | { type: 'memory'; rssMb: number; heapMb: number; queues: number };
