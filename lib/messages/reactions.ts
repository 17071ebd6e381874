import { checkEmoji, completeEmoji, presentReactionType, storedReactionType } from '../emoji/choice';
import { perShape, type EventQueue } from '../events/queues';
import { sendEvent, write } from '../events/send';
import { endpoint } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { accessMessage, messageAudience } from './access';
import { HISTORICAL_VIEW_FLAGS } from './flags';
import type { MessageRow, ReactionRow } from './queries';

function announceReaction(stoa: Stoa, reactor: UserRow, row: MessageRow, reaction: ReactionRow, op: 'add' | 'remove'): void {
  const names = (queue: EventQueue) => queue.settings.reactionTypeNames;
  const event = perShape(names, (queue) => ({
    type: 'reaction',
    op,
    // The reactor by ID only: the deprecated `user` object left at level 484.
    user_id: reactor.id,
    message_id: row.id,
    emoji_name: reaction.emoji_name,
    emoji_code: reaction.emoji_code,
    reaction_type: presentReactionType(reaction.reaction_type, names(queue)),
  }));
  sendEvent(stoa, event, messageAudience(stoa, row));
}

/**
 * Adds a reaction. A reactor who reads the message through a channel's history gets a copy of
 * their own, flagged historical, so the message is theirs from now on and they hear of changes.
 */
export function addReaction(stoa: Stoa, reactor: UserRow, row: MessageRow, inHistory: boolean, reaction: ReactionRow): void {
  write(stoa, () => {
    if (!inHistory) stoa.messages.insertUserMessage(reactor.id, row.id, HISTORICAL_VIEW_FLAGS);
    stoa.messages.insertReaction(reaction);
    announceReaction(stoa, reactor, row, reaction, 'add');
  });
}

export function removeReaction(stoa: Stoa, reactor: UserRow, row: MessageRow, reaction: ReactionRow): void {
  write(stoa, () => {
    stoa.messages.deleteReaction(reaction);
    announceReaction(stoa, reactor, row, reaction, 'remove');
  });
}

interface ReactionParams {
  message_id: number;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

const REACTION_PARAMS = {
  message_id: { type: 'integer' },
  emoji_name: { type: 'string' },
  emoji_code: { type: 'string' },
  reaction_type: { type: 'string' },
} as const;

export const addReactionView = endpoint<ReactionParams & { emoji_name: string }>({
  params: { properties: REACTION_PARAMS, required: ['message_id', 'emoji_name'] },
  view: ({ stoa, user, params }) => {
    const { row, inHistory } = accessMessage(stoa, user, params.message_id, { modifying: true });
    const wanted = completeEmoji(stoa.realmEmoji, params.emoji_name, params.emoji_code, params.reaction_type);
    if (stoa.messages.ownReaction(row.id, user.id, wanted.code, wanted.reactionType)) {
      throw new ApiError('REACTION_ALREADY_EXISTS', 'Reaction already exists.');
    }
    // Joining an earlier reaction is a vote for it: it keeps that reaction's name, unchecked,
    // so one emoji never shows twice under two names.
    const earlier = stoa.messages.firstReaction(row.id, wanted.code, wanted.reactionType);
    const emoji = earlier
      ? { name: earlier.emoji_name, code: earlier.emoji_code, reactionType: earlier.reaction_type }
      : checkEmoji(stoa.realmEmoji, wanted);
    addReaction(stoa, user, row, inHistory, {
      message_id: row.id,
      user_id: user.id,
      emoji_name: emoji.name,
      emoji_code: emoji.code,
      reaction_type: emoji.reactionType,
    });
    return {};
  },
});

export const removeReactionView = endpoint<ReactionParams>({
  params: { properties: REACTION_PARAMS, required: ['message_id'] },
  view: ({ stoa, user, params }) => {
    const { row } = accessMessage(stoa, user, params.message_id, { modifying: true });
    let code = params.emoji_code;
    if (code === undefined) {
      if (params.emoji_name === undefined) {
        throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
      }
      code = completeEmoji(stoa.realmEmoji, params.emoji_name, undefined, undefined).code;
    }
    // Unlike adding, removing does not infer the type from the name; Zulip's clients send it.
    const type = storedReactionType(params.reaction_type ?? 'unicode_emoji');
    const reaction = stoa.messages.ownReaction(row.id, user.id, code, type);
    if (!reaction) throw new ApiError('REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
    removeReaction(stoa, user, row, reaction);
    return {};
  },
});
