import { perShape } from '../events/queues';
import { sendEvent } from '../events/send';
import { profileValuesOf } from '../profile-fields/present';
import type { Stoa } from '../stoa';
import { accessibleUserIds, INACCESSIBLE_USER_NAME, userAccessRestricted } from './access';
import { presentUser } from './present';
import { Role } from './queries';

/**
 * What some guests could see before a change: for each, the people they could access, or
 * null for everyone. Taken before a change that may give or take away access (subscriptions,
 * a new direct-message conversation, a role, a deactivation, the organization's setting).
 */
export type AccessSnapshot = ReadonlyMap<number, ReadonlySet<number> | null>;

/**
 * Takes the snapshot for the users `candidateIds` gives (the active guests among them), or for every
 * active guest. Empty, and free, while the organization limits nobody and `always` is false;
 * `always` is for the change of the setting itself.
 */
export function snapshotUserAccess(stoa: Stoa, candidateIds?: () => Iterable<number>, always = false): AccessSnapshot {
  const snapshot = new Map<number, ReadonlySet<number> | null>();
  if (!always && !userAccessRestricted(stoa)) return snapshot;
  for (const id of candidateIds ? candidateIds() : stoa.users.activeIds()) {
    const user = stoa.users.byId(id);
    if (user?.is_active && user.role === Role.GUEST && !snapshot.has(id)) snapshot.set(id, accessibleUserIds(stoa, user));
  }
  return snapshot;
}

/**
 * After the change: each guest of the snapshot hears of the people they can now see
 * (`realm_user` add, the person as a fresh registration would show them) and of those they
 * no longer can (`realm_user` remove), as Zulip tells guests since feature level 228. Call
 * inside `write`, after the change.
 */
export function announceUserAccessChanges(stoa: Stoa, before: AccessSnapshot): void {
  if (before.size === 0) return;
  const everyone = stoa.users.inRealm().filter((user) => !user.is_bot);
  for (const [guestId, could] of before) {
    const guest = stoa.users.byId(guestId)!;
    // A deactivated account has no clients left to tell. (One no longer a guest sees everyone.)
    if (!guest.is_active) continue;
    const can = accessibleUserIds(stoa, guest);
    if (could === can) continue; // both null: nothing was or is hidden
    const had = (id: number) => could === null || could.has(id);
    const has = (id: number) => can === null || can.has(id);
    for (const target of everyone) {
      if (target.id === guestId) continue;
      if (has(target.id) && !had(target.id) && target.is_active) {
        const event = perShape(
          (queue) => String(queue.settings.clientGravatar),
          (queue) => {
            const view = { avatars: stoa.avatars, clientGravatar: queue.settings.clientGravatar, profileData: profileValuesOf(stoa, target.id) };
            return { type: 'realm_user', op: 'add', person: presentUser(guest, stoa.users.byId(target.id)!, view) };
          },
        );
        sendEvent(stoa, event, [guestId]);
      } else if (had(target.id) && !has(target.id)) {
        const person = { user_id: target.id, full_name: INACCESSIBLE_USER_NAME };
        sendEvent(stoa, { type: 'realm_user', op: 'remove', person }, [guestId]);
      }
    }
  }
}
