import type { StateContext } from '../events/state-context';
import { JsonText } from '../http/json';
import type { Stoa } from '../stoa';
import { KeptWhileUnwritten } from '../table-writes';
import { statusOf } from './views';

/** What the statuses are made of: the accounts, their statuses, and presence_enabled (a setting, or the organization's default). */
const STATUS_TABLES = ['users', 'user_status', 'user_settings', 'realm_user_settings_defaults'];

const keptStatuses = new WeakMap<Stoa, Map<string, KeptWhileUnwritten<JsonText>>>();

/**
 * Register state for fetch type `user_status`: every active user with something to show,
 * including `away` for those who turned presence_enabled off, so that the user_status event
 * sent when that setting changes keeps this map current. It is the same for everyone (but for
 * the reaction type names a client knows), so it is kept as JSON until one of its tables is written.
 */
export function userStatusState({ stoa, queue }: StateContext): Record<string, unknown> {
  let byNames = keptStatuses.get(stoa);
  if (!byNames) keptStatuses.set(stoa, (byNames = new Map()));
  const names = queue.reactionTypeNames;
  let kept = byNames.get(names);
  if (!kept) byNames.set(names, (kept = new KeptWhileUnwritten(stoa.tableWrites, STATUS_TABLES)));
  const statuses = kept.get(() => {
    const built: Record<string, unknown> = {};
    for (const user of stoa.users.inRealm()) {
      if (!user.is_active) continue;
      const status = statusOf(stoa, user, names);
      if (Object.keys(status).length > 0) built[String(user.id)] = status;
    }
    return new JsonText(JSON.stringify(built));
  });
  return { user_status: statuses };
}
