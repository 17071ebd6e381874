import { write } from '../events/send';
import { serverTimer } from '../server-timer';
import type { Stoa } from '../stoa';
import { Role } from '../users/queries';
import { announceMembership, fullMemberWaitMs, trackingChannelAccess, waitedLongEnough } from './actions';

/**
 * role:fullmembers holds the members whose accounts are older than the organization's waiting
 * period (realm_waiting_period_threshold, in days), besides moderators and up through its
 * subgroup. Members are promoted when their waiting period ends: one timer waits for the next
 * promotion, as Zulip's daily job does but on time. Changing the waiting period, and starting
 * the server, brings the group up to date at once, in both directions.
 */

const armAt = serverTimer(updateFullMembers);

/** Puts exactly the members who have waited long enough in role:fullmembers, telling everyone. */
export function updateFullMembers(stoa: Stoa): void {
  write(stoa, () => {
    const groupId = stoa.groups.byName('role:fullmembers')!.id;
    const direct = new Set(stoa.groups.directMemberIds(groupId));
    for (const user of stoa.users.inRealm()) {
      if (user.role !== Role.MEMBER) continue;
      const full = waitedLongEnough(stoa, user);
      if (full === direct.has(user.id)) continue;
      // The group may be named by a channel's settings: access follows membership.
      trackingChannelAccess(stoa, [user.id], () => {
        if (full) stoa.groups.addMember(groupId, user.id);
        else stoa.groups.removeMember(groupId, user.id);
      });
      announceMembership(stoa, full ? 'add_members' : 'remove_members', groupId, user.id);
    }
  });
  armNextPromotion(stoa);
}

/** Points the timer at the next member whose waiting period ends, or stops it if none is waiting. */
export function armNextPromotion(stoa: Stoa): void {
  const groupId = stoa.groups.byName('role:fullmembers')!.id;
  const direct = new Set(stoa.groups.directMemberIds(groupId));
  const wait = fullMemberWaitMs(stoa);
  let next: number | undefined;
  for (const user of stoa.users.inRealm()) {
    if (user.role !== Role.MEMBER || direct.has(user.id)) continue;
    next = Math.min(next ?? Infinity, user.date_joined_ms + wait);
  }
  armAt(stoa, next);
}

/** Stops the timer, for shutdown: the next start catches up. */
export function stopFullMemberPromotion(stoa: Stoa): void {
  armAt(stoa, undefined);
}
