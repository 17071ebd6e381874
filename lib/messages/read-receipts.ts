import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import { realmSetting } from '../realm/settings-store';
import { accessMessage } from './access';

/**
 * GET /messages/{message_id}/read_receipts: who has read a message. As on Zulip, the list
 * leaves out the sender, deactivated users, people who turned off send_read_receipts, and
 * anyone the caller muted or who muted the caller (so nobody can tell they were muted by
 * seeing every message read at once).
 */
export const readReceiptsView = endpoint<{ message_id: number }>({
  pathPatterns: { message_id: /^\d+$/ },
  params: { properties: { message_id: { type: 'integer' } }, required: ['message_id'] },
  view: ({ stoa, user, params }) => {
    const { row } = accessMessage(stoa, user, params.message_id);
    if (realmSetting(stoa, 'realm_enable_read_receipts') !== true) {
      throw badRequest('Read receipts are disabled in this organization.');
    }
    const mutedByCaller = new Set(stoa.mutedUsers.forUser(user.id).map((muted) => muted.id));
    const mutersOfCaller = stoa.mutedUsers.mutersOf(user.id);
    const userIds = stoa.messages
      .readersOf(row.id)
      .filter((readerId) => readerId !== row.sender_id && !mutedByCaller.has(readerId) && !mutersOfCaller.has(readerId));
    return { user_ids: userIds };
  },
});
