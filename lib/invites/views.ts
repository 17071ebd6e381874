import { hasConfirmationKeyFormat } from '../auth/credentials';
import { signIn } from '../auth/session-views';
import { canAddSubscribers, accessChannelById } from '../channels/access';
import { unixSeconds } from '../clock';
import { accessGroupForUpdate, refuseGuests } from '../groups/access';
import { endpoint, NO_PARAMS, publicEndpoint } from '../http/endpoint';
import { ApiError, badRequest, missingArgument, ownerRequired } from '../http/errors';
import { userHasRealmPermission } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { addUser } from '../users/actions';
import { write } from '../events/send';
import { Role, type RoleValue, type UserRow } from '../users/queries';
import { newAccount, ROLES } from '../users/views';
import { createInvite, noteInviteAccepted, revokeInvite } from './actions';
import { inviteLink, presentInvite } from './present';
import { InviteStatus, type InviteRow } from './queries';

/** Zulip's INVITATION_LINK_VALIDITY_DAYS, ten days, in minutes. */
export const DEFAULT_INVITE_EXPIRES_IN_MINUTES = 10 * 24 * 60;


/**
 * Who may make (or manage someone else's) invitation for a role: only owners invite owners,
 * and administrators, moderators and owners are invited by administrators.
 */
function checkRolePermission(user: UserRow, invitedAs: number, requireAdmin: boolean): void {
  if (invitedAs === Role.OWNER && user.role !== Role.OWNER) throw ownerRequired();
  if (requireAdmin && user.role > Role.ADMINISTRATOR) throw badRequest('Must be an organization administrator');
}

/**
 * The channels an invitation may name: ones the inviter can reach and may add people to;
 * the organization's default channels always.
 */
function inviteChannelIds(stoa: Stoa, user: UserRow, channelIds: readonly number[]): number[] {
  const channels = channelIds.map((channelId) => {
    try {
      return accessChannelById(stoa, user, channelId, { need: 'content' });
    } catch {
      throw badRequest(`Invalid channel ID ${channelId}. No invites were sent.`);
    }
  });
  const defaults = new Set(stoa.channels.defaultIds());
  if (channels.some((channel) => !defaults.has(channel.id) && !canAddSubscribers(stoa, user, channel))) {
    throw badRequest('You do not have permission to subscribe other users to channels.');
  }
  return channels.map((channel) => channel.id);
}

export const createMultiuseInvite = endpoint<{
  invite_expires_in_minutes: number | null;
  invite_as: RoleValue;
  stream_ids: number[];
  group_ids: number[];
  include_realm_default_subscriptions: boolean;
}>({
  params: {
    properties: {
      invite_expires_in_minutes: { type: ['integer', 'null'], default: DEFAULT_INVITE_EXPIRES_IN_MINUTES },
      invite_as: { type: 'integer', enum: ROLES, default: Role.MEMBER },
      stream_ids: { type: 'array', items: { type: 'integer' }, default: [] },
      group_ids: { type: 'array', items: { type: 'integer' }, default: [] },
      include_realm_default_subscriptions: { type: 'boolean', default: false },
    },
  },
  view: ({ stoa, user, params }) => {
    refuseGuests(user);
    if (!userHasRealmPermission(stoa, user, 'realm_create_multiuse_invite_group')) throw badRequest('Insufficient permission');
    checkRolePermission(user, params.invite_as, params.invite_as !== Role.MEMBER && params.invite_as !== Role.GUEST);
    const channelIds = inviteChannelIds(stoa, user, params.stream_ids);
    const groupIds = params.group_ids.map((groupId) => accessGroupForUpdate(stoa, user, groupId, 'can_add_members_group').id);
    const invite = createInvite(stoa, {
      invitedBy: user.id,
      invitedAs: params.invite_as,
      expiresInMinutes: params.invite_expires_in_minutes,
      channelIds,
      groupIds,
      includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
    });
    return { invite_link: inviteLink(stoa, invite) };
  },
});

export const getInvites = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => {
    refuseGuests(user);
    const now = unixSeconds(stoa.clock);
    // Administrators manage everyone's invitations; others only their own.
    const invites = stoa.invites.usable(now, user.role <= Role.ADMINISTRATOR ? undefined : user.id);
    return { invites: invites.map((invite) => presentInvite(stoa, invite)) };
  },
});

function noSuchInvitation(): ApiError {
  return badRequest('No such invitation');
}

export const revokeMultiuseInvite = endpoint<{ invite_id: number }>({
  pathPatterns: { invite_id: /^\d+$/ },
  params: { properties: { invite_id: { type: 'integer' } } },
  view: ({ stoa, user, params }) => {
    refuseGuests(user);
    const invite = stoa.invites.byId(params.invite_id);
    if (!invite || !invite.is_multiuse) throw noSuchInvitation();
    if (invite.invited_by_user_id !== user.id) checkRolePermission(user, invite.invited_as, true);
    if (invite.status === InviteStatus.REVOKED) throw badRequest('Invitation has already been revoked');
    revokeInvite(stoa, invite);
    return {};
  },
});

/**
 * The invitation a link's key names, if it can still be used; Zulip's three ways a
 * confirmation link fails otherwise. All are 404s: the link leads nowhere.
 */
function usableInvite(stoa: Stoa, key: string): InviteRow {
  if (!hasConfirmationKeyFormat(key)) throw new ApiError('BAD_REQUEST', 'The confirmation link is malformed.', 404);
  const invite = stoa.invites.byKey(key);
  if (!invite) throw new ApiError('BAD_REQUEST', "We couldn't find your confirmation link in the system.", 404);
  const expired = invite.expires_at !== null && invite.expires_at < unixSeconds(stoa.clock);
  if (invite.status !== InviteStatus.ACTIVE || expired) {
    throw new ApiError('BAD_REQUEST', 'The confirmation link has expired or been deactivated.', 404);
  }
  return invite;
}

/** What the join page shows before anyone signs up: which organization, and as what. */
export const inviteDetails = publicEndpoint<{ key: string }>({
  params: { properties: { key: { type: 'string' } }, required: ['key'] },
  view: ({ stoa, params }) => {
    const invite = usableInvite(stoa, params.key);
    return {
      realm_name: stoa.realm.get()!.name,
      invite_as: invite.invited_as,
      is_multiuse: invite.is_multiuse === 1,
      // An email invitation is for one address, which the page fills in.
      email: invite.email,
      expiry_date: invite.expires_at,
    };
  },
});

/** Signing up through an invitation: the account is made, joins what it says, and is signed in. */
export const register = publicEndpoint<{ key: string; full_name: string; email?: string; password: string }>({
  params: {
    properties: {
      key: { type: 'string' },
      full_name: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
    },
    required: ['key', 'full_name', 'password'],
  },
  view: async ({ stoa, params, req, res }) => {
    usableInvite(stoa, params.key);
    const email = params.email ?? stoa.invites.byKey(params.key)!.email;
    if (email === null) throw missingArgument('email');
    const account = await newAccount({ email, password: params.password, full_name: params.full_name });
    // Checked again after hashing: the invitation may have been revoked or used meanwhile.
    const invite = usableInvite(stoa, params.key);
    if (invite.email !== null && invite.email.toLowerCase() !== account.email.toLowerCase()) {
      throw badRequest('This invitation is for another email address.');
    }
    const defaults = invite.include_realm_default_subscriptions ? stoa.channels.defaultIds() : [];
    const channelIds = [...new Set([...stoa.invites.channelIds(invite.id), ...defaults])];
    const userId = write(stoa, () => {
      const id = addUser(stoa, { ...account, role: invite.invited_as as RoleValue }, { channelIds, groupIds: stoa.invites.groupIds(invite.id) });
      noteInviteAccepted(stoa, invite);
      return id;
    });
    return signIn(stoa, stoa.users.byId(userId)!, req, res);
  },
});
