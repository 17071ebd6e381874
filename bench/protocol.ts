/** Messages between the benchmark's server process and its load-client process. */

export interface Credentials {
  email: string;
  apiKey: string;
}

export type ServerMessage =
  | { type: 'setup'; url: string; maxSockets: number }
  | { type: 'register-idle'; users: Credentials[]; count: number }
  | { type: 'delete-idle' }
  | { type: 'register-and-park'; users: Credentials[]; count: number }
  | { type: 'repoll' }
  | { type: 'exit' };

export type ClientMessage =
  | { type: 'ready' }
  | { type: 'registered' }
  | { type: 'deleted' }
  /** Every poll has been sent (the server side decides when they are parked). */
  | { type: 'parking' }
  /** When each poll received this round's event: wall-clock ms, fractional. */
  | { type: 'received'; times: number[] }
  | { type: 'error'; message: string };
