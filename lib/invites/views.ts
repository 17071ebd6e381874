import { hasConfirmationKeyFormat } from '../auth/credentials';
import { signIn } from '../auth/session-views';
import { canAddSubscribers, accessChannelById } from '../channels/access';
import { unixSeconds } from '../clock';
import { accessGroupForUpdate } from '../groups/access';
import { requireMemberOrAdmin } from '../users/access';
import { answerErrorAfterCommit, endpoint, NO_PARAMS, publicEndpoint } from '../http/endpoint';
import { ApiError, badRequest, insufficientPermission, missingArgument, ownerRequired } from '../http/errors';
import { userHasRealmPermission } from '../realm/settings-store';
import { MAX_WELCOME_MESSAGE_LENGTH } from '../realm/welcome';
import type { Stoa } from '../stoa';
import { addUser } from '../users/actions';
import { write } from '../events/send';
import { Role, type RoleValue, type UserRow } from '../users/queries';
import { EMAIL_SHAPE } from '../users/names';
import { newAccount, ROLES } from '../users/views';
import { acceptInvite } from './accept';
import { createEmailInvites, createInvite, resendInvite, revokeInvite, type InviteSpec } from './actions';
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

/** The parameters links and email invitations share, as Zulip names them. */
interface InviteParams {
  invite_expires_in_minutes: number | null;
  invite_as: RoleValue;
  stream_ids: number[];
  group_ids: number[];
  include_realm_default_subscriptions: boolean;
  welcome_message_custom_text?: string | null;
}

/**
 * Only administrators choose what the Welcome Bot says (level 416); anyone else who tries is
 * refused as Zulip refuses them, and their invitations use the organization's text.
 */
function welcomeTextOf(user: UserRow, text: string | null | undefined): string | null {
  if (text === undefined || text === null) return null;
  if (user.role > Role.ADMINISTRATOR) throw badRequest('Must be an organization administrator');
  return text;
}

/**
 * What an invitation will give, once the inviter may give it: the role (see
 * checkRolePermission), channels they may add people to, groups they may add members to.
 */
function checkedInviteSpec(stoa: Stoa, user: UserRow, params: InviteParams): InviteSpec {
  checkRolePermission(user, params.invite_as, params.invite_as !== Role.MEMBER && params.invite_as !== Role.GUEST);
  return {
    invitedBy: user.id,
    invitedAs: params.invite_as,
    expiresInMinutes: params.invite_expires_in_minutes,
    channelIds: inviteChannelIds(stoa, user, params.stream_ids),
    groupIds: params.group_ids.map((groupId) => accessGroupForUpdate(stoa, user, groupId, 'can_add_members_group').id),
    includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
    welcomeMessageCustomText: welcomeTextOf(user, params.welcome_message_custom_text),
  };
}

/** Without --smtp there is no way to deliver an email invitation; a link still works. */
function requireOutgoingMail(stoa: Stoa): void {
  if (!stoa.mailer.configured) {
    throw badRequest('This server has no outgoing mail configured, so it cannot send email invitations. Use an invitation link instead.');
  }
}

/**
 * The addresses in invitee_emails, as Zulip reads them: separated by commas or newlines,
 * each possibly written as `Name <address>`; blanks and repeats dropped.
 */
function parseInviteeEmails(raw: string): string[] {
  const emails = new Map<string, string>();
  for (const entry of raw.split(/[,\n]/)) {
    const email = (/<(.*)>/.exec(entry)?.[1] ?? entry).trim();
    if (email !== '' && !emails.has(email.toLowerCase())) emails.set(email.toLowerCase(), email);
  }
  return [...emails.values()];
}

/** Zulip's INVITATION_FAILED error: which addresses were skipped and why, and whether any invitation went out. */
function invitationFailed(msg: string, errors: Array<[string, string, boolean]>, sentInvitations: boolean): ApiError {
  return new ApiError('INVITATION_FAILED', msg, 400, {
    errors,
    sent_invitations: sentInvitations,
    license_limit_reached: false,
    daily_limit_reached: false,
  });
}

export const sendEmailInvites = endpoint<InviteParams & { invitee_emails: string; notify_referrer_on_join: boolean }>({
  params: {
    properties: {
      invitee_emails: { type: 'string' },
      invite_expires_in_minutes: { type: ['integer', 'null'], default: DEFAULT_INVITE_EXPIRES_IN_MINUTES },
      invite_as: { type: 'integer', enum: ROLES, default: Role.MEMBER },
      stream_ids: { type: 'array', items: { type: 'integer' } },
      group_ids: { type: 'array', items: { type: 'integer' }, default: [] },
      include_realm_default_subscriptions: { type: 'boolean', default: false },
      welcome_message_custom_text: { type: ['string', 'null'], maxLength: MAX_WELCOME_MESSAGE_LENGTH },
      notify_referrer_on_join: { type: 'boolean', default: true },
    },
    required: ['invitee_emails', 'stream_ids'],
  },
  authorize: requireMemberOrAdmin,
  view: (call) => {
    const { stoa, user, params } = call;
    if (!userHasRealmPermission(stoa, user, 'realm_can_invite_users_group')) throw insufficientPermission();
    requireOutgoingMail(stoa);
    const spec = checkedInviteSpec(stoa, user, params);
    const emails = parseInviteeEmails(params.invitee_emails);
    if (emails.length === 0) throw badRequest('You must specify at least one email address.');

    const invalid: Array<[string, string, boolean]> = [];
    const taken: Array<[string, string, boolean]> = [];
    const invitable: string[] = [];
    for (const email of emails) {
      const existing = EMAIL_SHAPE.test(email) ? stoa.users.byAnyEmail(email) : undefined;
      if (!EMAIL_SHAPE.test(email)) invalid.push([email, 'Invalid address.', false]);
      else if (existing?.is_active) taken.push([email, 'Already has an account.', false]);
      else if (existing) taken.push([email, 'Account has been deactivated.', true]);
      else invitable.push(email);
    }
    // One malformed address stops them all (it is likely a typo in the list); addresses that
    // already have accounts are only skipped.
    if (invalid.length > 0) {
      throw invitationFailed("Some emails did not validate, so we didn't send any invitations.", [...invalid, ...taken], false);
    }
    if (invitable.length === 0) throw invitationFailed("We weren't able to invite anyone.", taken, false);
    createEmailInvites(stoa, { ...spec, notifyReferrerOnJoin: params.notify_referrer_on_join }, invitable);
    if (taken.length === 0) return {};
    return answerErrorAfterCommit(
      call,
      invitationFailed(
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        taken,
        true,
      ),
    );
  },
});

export const createMultiuseInvite = endpoint<InviteParams>({
  params: {
    properties: {
      invite_expires_in_minutes: { type: ['integer', 'null'], default: DEFAULT_INVITE_EXPIRES_IN_MINUTES },
      invite_as: { type: 'integer', enum: ROLES, default: Role.MEMBER },
      stream_ids: { type: 'array', items: { type: 'integer' }, default: [] },
      group_ids: { type: 'array', items: { type: 'integer' }, default: [] },
      include_realm_default_subscriptions: { type: 'boolean', default: false },
      welcome_message_custom_text: { type: ['string', 'null'], maxLength: MAX_WELCOME_MESSAGE_LENGTH },
    },
  },
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user, params }) => {
    if (!userHasRealmPermission(stoa, user, 'realm_create_multiuse_invite_group')) throw insufficientPermission();
    const invite = createInvite(stoa, checkedInviteSpec(stoa, user, params));
    return { invite_link: inviteLink(stoa, invite) };
  },
});

export const getInvites = endpoint({
  params: NO_PARAMS,
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user }) => {
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
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user, params }) => {
    const invite = stoa.invites.byId(params.invite_id);
    if (!invite || !invite.is_multiuse) throw noSuchInvitation();
    if (invite.invited_by_user_id !== user.id) checkRolePermission(user, invite.invited_as, true);
    if (invite.status === InviteStatus.REVOKED) throw badRequest('Invitation has already been revoked');
    revokeInvite(stoa, invite);
    return {};
  },
});

/**
 * An email invitation the caller may manage, still usable: their own, or (for an
 * administrator) anyone's, but an owner's invitation of an owner only by an owner.
 */
function manageableEmailInvite(stoa: Stoa, user: UserRow, inviteId: number): InviteRow {
  const invite = stoa.invites.byId(inviteId);
  const expired = invite?.expires_at != null && invite.expires_at < unixSeconds(stoa.clock);
  if (!invite || invite.is_multiuse || invite.status !== InviteStatus.ACTIVE || expired) throw noSuchInvitation();
  if (invite.invited_by_user_id !== user.id) checkRolePermission(user, invite.invited_as, true);
  return invite;
}

export const revokeEmailInvite = endpoint<{ invite_id: number }>({
  pathPatterns: { invite_id: /^\d+$/ },
  params: { properties: { invite_id: { type: 'integer' } } },
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user, params }) => {
    revokeInvite(stoa, manageableEmailInvite(stoa, user, params.invite_id));
    return {};
  },
});

export const resendEmailInvite = endpoint<{ invite_id: number }>({
  pathPatterns: { invite_id: /^\d+$/ },
  params: { properties: { invite_id: { type: 'integer' } } },
  authorize: requireMemberOrAdmin,
  view: ({ stoa, user, params }) => {
    const invite = manageableEmailInvite(stoa, user, params.invite_id);
    requireOutgoingMail(stoa);
    resendInvite(stoa, invite);
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
      acceptInvite(stoa, invite, id);
      return id;
    });
    return signIn(stoa, stoa.users.byId(userId)!, req, res);
  },
});
