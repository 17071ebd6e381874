import type { StateContext } from '../events/state-context';
import { presenceData } from './present';

/** Register state for fetch type `presence`, in the format and history the client asked for. */
export function presenceState({ stoa, params }: StateContext): Record<string, unknown> {
  return presenceData(stoa, {
    modern: params.slim_presence,
    lastUpdateId: null,
    historyLimitDays: params.presence_history_limit_days,
  });
}
