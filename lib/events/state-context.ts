import type { RawNarrowTerm } from '../messages/narrow';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import type { QueueSettings } from './queues';

// The types POST /register hands each area's state provider. They live here, below the areas,
// so that an area's state provider need not import register.ts, which sits above every area.

/** The parameters of POST /register, validated (see REGISTER_PARAMS in register.ts). */
export interface RegisterParams {
  apply_markdown: boolean;
  client_gravatar: boolean;
  include_subscribers: boolean | 'partial';
  slim_presence: boolean;
  presence_history_limit_days: number | null;
  event_types: string[] | null;
  fetch_event_types?: string[] | null;
  all_public_streams: boolean;
  client_capabilities: Record<string, unknown>;
  narrow: RawNarrowTerm[];
  queue_lifespan_secs: number;
  idle_queue_timeout?: number | string;
}

/** What the state providers of each area get to shape the initial state for this client. */
export interface StateContext {
  stoa: Stoa;
  user: UserRow;
  queue: QueueSettings;
  params: RegisterParams;
}
