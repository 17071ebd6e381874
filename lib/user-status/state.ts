import type { StateContext } from '../events/state-context';
import { statusOf } from './views';

/**
 * Register state for fetch type `user_status`: every active user with something to show,
 * including `away` for those who turned presence_enabled off, so that the user_status event
 * sent when that setting changes keeps this map current.
 */
export function userStatusState({ stoa, queue }: StateContext): Record<string, unknown> {
  const statuses: Record<string, unknown> = {};
  for (const user of stoa.users.inRealm()) {
    if (!user.is_active) continue;
    const status = statusOf(stoa, user, queue.reactionTypeNames);
    if (Object.keys(status).length > 0) statuses[String(user.id)] = status;
  }
  return { user_status: statuses };
}
