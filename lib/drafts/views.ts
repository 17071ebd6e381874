import { accessChannelById } from '../channels/access';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import type { ParamSchema } from '../http/validate';
import { truncateContent, truncateTopic } from '../messages/addressing';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { userSettings } from '../users/settings-store';
import { createDrafts, deleteDraft, editDraft } from './actions';
import { presentDraft } from './present';
import type { DraftFields, DraftType } from './queries';

/** The last moment a timestamp may name (the end of year 9999, as Python's datetime allows). */
const MAX_TIMESTAMP = 253402300799;

/** A draft as clients send it: never with an `id`, the timestamp optional. */
const DRAFT: ParamSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['', 'stream', 'private'] },
    to: { type: 'array', items: { type: 'integer' } },
    topic: { type: 'string' },
    content: { type: 'string' },
    timestamp: { type: ['number', 'null'] },
  },
  required: ['type', 'to', 'topic', 'content'],
  additionalProperties: false,
};

interface DraftParam {
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp?: number | null;
}


function draftDoesNotExist(): ApiError {
  return new ApiError('BAD_REQUEST', 'Draft does not exist', 404);
}

/** Every draft endpoint is closed to a user who turned draft synchronization off. */
function requireDraftSync(stoa: Stoa, user: UserRow): void {
  if (userSettings(stoa, user).enable_drafts_synchronization !== true) {
    throw badRequest('User has disabled synchronizing drafts.');
  }
}

/**
 * The people of a direct draft as clients see them: the others in the conversation, or the
 * user alone for a note to self. Every ID must name an active user.
 */
function directRecipients(stoa: Stoa, user: UserRow, ids: readonly number[]): number[] {
  const unique = [...new Set(ids)];
  for (const id of unique) {
    const person = stoa.users.byId(id);
    if (!person) throw badRequest(`Invalid user ID ${id}`);
    if (!person.is_active) throw badRequest(`'${person.email}' is no longer using Zulip.`);
  }
  const others = unique.filter((id) => id !== user.id);
  return (others.length > 0 ? others : [user.id]).sort((a, b) => a - b);
}

/** Checks a draft and puts it in the form it is stored in; `name` is how errors refer to it. */
function cleanDraft(stoa: Stoa, user: UserRow, draft: DraftParam, name: string): DraftFields {
  // Surrounding whitespace is not part of a draft, and a draft of only whitespace is no draft.
  const content = draft.content.trim();
  if (content === '') throw badRequest(`${name}["content"] cannot be blank`);
  if (content.includes('\0')) throw badRequest('Message must not contain null bytes');

  const timestamp = draft.timestamp ?? stoa.clock.now() / 1000;
  if (timestamp < 0) throw badRequest('Timestamp must not be negative.');
  if (timestamp > MAX_TIMESTAMP) throw badRequest(`${name}["timestamp"] is too large`);

  const fields: DraftFields = {
    type: draft.type,
    to: [],
    topic: '',
    content: truncateContent(content),
    lastEditTime: Math.round(timestamp * 1e6) / 1e6,
  };
  if (draft.type === 'stream') {
    fields.topic = truncateTopic(draft.topic);
    if (fields.topic.includes('\0')) throw badRequest('Topic must not contain null bytes');
    if (draft.to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
    fields.to = [accessChannelById(stoa, user, draft.to[0], { need: 'content' }).id];
  } else if (draft.type === 'private' && draft.to.length > 0) {
    fields.to = directRecipients(stoa, user, draft.to);
  } else {
    // A direct draft to nobody yet is an unaddressed draft.
    fields.type = '';
  }
  return fields;
}

export const getDrafts = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => {
    requireDraftSync(stoa, user);
    const drafts = stoa.drafts.forUser(user.id).map(presentDraft);
    return { count: drafts.length, drafts };
  },
});

export const createDraftsView = endpoint<{ drafts: DraftParam[] }>({
  params: { properties: { drafts: { type: 'array', items: DRAFT } }, required: ['drafts'] },
  view: ({ stoa, user, params }) => {
    requireDraftSync(stoa, user);
    const drafts = params.drafts.map((draft, i) => cleanDraft(stoa, user, draft, `drafts[${i}]`));
    return { ids: createDrafts(stoa, user.id, drafts) };
  },
});

/** Zulip's routes take only digits here; anything else is no such page. */
const DRAFT_ID = { draft_id: /^\d+$/ };

export const editDraftView = endpoint<{ draft_id: number; draft: DraftParam }>({
  pathPatterns: DRAFT_ID,
  params: { properties: { draft_id: { type: 'integer' }, draft: DRAFT }, required: ['draft'] },
  view: ({ stoa, user, params }) => {
    requireDraftSync(stoa, user);
    if (!stoa.drafts.get(user.id, params.draft_id)) throw draftDoesNotExist();
    editDraft(stoa, user.id, params.draft_id, cleanDraft(stoa, user, params.draft, 'draft'));
    return {};
  },
});

export const deleteDraftView = endpoint<{ draft_id: number }>({
  pathPatterns: DRAFT_ID,
  params: { properties: { draft_id: { type: 'integer' } } },
  view: ({ stoa, user, params }) => {
    requireDraftSync(stoa, user);
    if (!stoa.drafts.get(user.id, params.draft_id)) throw draftDoesNotExist();
    deleteDraft(stoa, user.id, params.draft_id);
    return {};
  },
});
