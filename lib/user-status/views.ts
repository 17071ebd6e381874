import { checkEmoji, completeEmoji, reactionTypeNamesFor, type EmojiChoice, type ReactionTypeNames } from '../emoji/choice';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { badRequest, insufficientPermission } from '../http/errors';
import type { Stoa } from '../stoa';
import { checkCanReadUser, refuseBots } from '../users/access';
import { Role, type UserRow } from '../users/queries';
import { userSettings } from '../users/settings-store';
import { updateUserStatus } from './actions';
import { presentStatus } from './present';

/** Zulip's longest status text, counted after surrounding spaces are dropped. */
const MAX_STATUS_TEXT_LENGTH = 60;

/** A user's status as others see it, through a client that knows reaction types by `names`. */
export function statusOf(stoa: Stoa, user: UserRow, names: ReactionTypeNames): Record<string, unknown> {
  return presentStatus(stoa.userStatus.byUser(user.id), userSettings(stoa, user).presence_enabled as boolean, names);
}

interface UpdateStatusParams {
  status_text?: string;
  away?: boolean;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

const STATUS_PARAMS = {
  status_text: { type: 'string' },
  emoji_name: { type: 'string' },
  emoji_code: { type: 'string' },
  reaction_type: { type: 'string' },
} as const;

/** A status change as asked for, checked as Zulip checks it; `away` only from the user themself. */
function checkedChange(stoa: Stoa, params: UpdateStatusParams): { away?: boolean; statusText?: string; emoji?: EmojiChoice } {
  const statusText = params.status_text?.trim();
  if (statusText !== undefined && [...statusText].length > MAX_STATUS_TEXT_LENGTH) {
    throw badRequest(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
  const { away, emoji_name: emojiName, emoji_code: emojiCode, reaction_type: reactionType } = params;
  if (away === undefined && statusText === undefined && emojiName === undefined) {
    throw badRequest('Client did not pass any new values.');
  }
  let emoji: EmojiChoice | undefined;
  if (emojiName === '') {
    // An empty name clears the emoji.
    emoji = { name: '', code: '', reactionType: 'unicode_emoji' };
  } else if (emojiName !== undefined) {
    emoji = checkEmoji(stoa.realmEmoji, completeEmoji(stoa.realmEmoji, emojiName, emojiCode, reactionType));
  } else if (emojiCode || reactionType) {
    throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  return { away, statusText, emoji };
}

export const updateStatusView = endpoint<UpdateStatusParams>({
  params: { properties: { ...STATUS_PARAMS, away: { type: 'boolean' } } },
  authorize: refuseBots,
  view: ({ stoa, user, params }) => {
    updateUserStatus(stoa, user, checkedChange(stoa, params));
    return {};
  },
});

/** A person whose status can be read or set: active, and no bot. */
function statusHolder(stoa: Stoa, userId: number): UserRow {
  const target = stoa.users.byId(userId);
  if (!target || target.is_system_bot || target.is_bot) throw badRequest('No such user');
  if (!target.is_active) throw badRequest('User is deactivated');
  return target;
}

/**
 * POST /users/{user_id}/status (levels 407, 473): an administrator sets someone else's
 * status, which everyone is told of as if they had set it themself. An administrator's bot
 * may do it too.
 */
export const updateStatusForUserView = endpoint<UpdateStatusParams & { user_id: number }>({
  params: { properties: { user_id: { type: 'integer' }, ...STATUS_PARAMS }, required: ['user_id'] },
  pathPatterns: { user_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    // As Zulip's access_user_by_id with for_admin: who is named is checked before the caller's role.
    const target = statusHolder(stoa, params.user_id);
    if (user.role > Role.ADMINISTRATOR) throw insufficientPermission();
    updateUserStatus(stoa, target, checkedChange(stoa, params));
    return {};
  },
});

export const getOwnStatus = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user, req }) => ({ status: statusOf(stoa, user, reactionTypeNamesFor(req)) }),
});

export const getUserStatus = endpoint<{ user_id: number }>({
  params: { properties: { user_id: { type: 'integer' } }, required: ['user_id'] },
  pathPatterns: { user_id: /^\d+$/ },
  view: ({ stoa, user, params, req }) => {
    const target = checkCanReadUser(stoa, user, statusHolder(stoa, params.user_id));
    return { status: statusOf(stoa, target, reactionTypeNamesFor(req)) };
  },
});
