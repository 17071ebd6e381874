import type { StateContext } from '../events/state-context';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import { REALM_SERVER_FACTS } from '../realm/settings';
import type { Stoa } from '../stoa';
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet } from './actions';
import { presentSavedSnippet } from './queries';

/** Zulip's longest snippet title. */
const MAX_TITLE_LENGTH = 60;
const MAX_CONTENT_LENGTH = REALM_SERVER_FACTS.max_message_length as number;
const SNIPPET_ID = { saved_snippet_id: /^\d+$/ };

/** Surrounding whitespace is not part of a title or content; the limits count what remains. */
function cleanText(name: string, raw: string, max: number): string {
  const text = raw.trim();
  if (text === '') throw badRequest(`${name} cannot be blank`);
  if (Array.from(text).length > max) throw badRequest(`${name} is too long (limit: ${max} characters)`);
  return text;
}

function snippetDoesNotExist(): ApiError {
  return new ApiError('BAD_REQUEST', 'Saved snippet does not exist.', 404);
}

function requireSnippet(stoa: Stoa, userId: number, snippetId: number): void {
  if (!stoa.savedSnippets.get(userId, snippetId)) throw snippetDoesNotExist();
}

export const getSavedSnippets = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => ({ saved_snippets: stoa.savedSnippets.forUser(user.id).map(presentSavedSnippet) }),
});

export const createSavedSnippetView = endpoint<{ title: string; content: string }>({
  params: { properties: { title: { type: 'string' }, content: { type: 'string' } }, required: ['title', 'content'] },
  view: ({ stoa, user, params }) => {
    const content = cleanText('content', params.content, MAX_CONTENT_LENGTH);
    const title = cleanText('title', params.title, MAX_TITLE_LENGTH);
    return { saved_snippet_id: createSavedSnippet(stoa, user.id, title, content) };
  },
});

export const editSavedSnippetView = endpoint<{ saved_snippet_id: number; title?: string; content?: string }>({
  pathPatterns: SNIPPET_ID,
  params: {
    properties: { saved_snippet_id: { type: 'integer' }, title: { type: 'string' }, content: { type: 'string' } },
  },
  view: ({ stoa, user, params }) => {
    const content = params.content === undefined ? undefined : cleanText('content', params.content, MAX_CONTENT_LENGTH);
    const title = params.title === undefined ? undefined : cleanText('title', params.title, MAX_TITLE_LENGTH);
    // Zulip answers an edit that changes nothing before looking the snippet up.
    if (title === undefined && content === undefined) return {};
    requireSnippet(stoa, user.id, params.saved_snippet_id);
    editSavedSnippet(stoa, user.id, params.saved_snippet_id, { title, content });
    return {};
  },
});

export const deleteSavedSnippetView = endpoint<{ saved_snippet_id: number }>({
  pathPatterns: SNIPPET_ID,
  params: { properties: { saved_snippet_id: { type: 'integer' } } },
  view: ({ stoa, user, params }) => {
    requireSnippet(stoa, user.id, params.saved_snippet_id);
    deleteSavedSnippet(stoa, user.id, params.saved_snippet_id);
    return {};
  },
});

/** Register state for fetch type `saved_snippets`. */
export function savedSnippetsState({ stoa, user }: StateContext): Record<string, unknown> {
  return { saved_snippets: stoa.savedSnippets.forUser(user.id).map(presentSavedSnippet) };
}
