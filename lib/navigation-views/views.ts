import type { StateContext } from '../events/state-context';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { addNavigationView, removeNavigationView, updateNavigationView } from './actions';
import { presentNavigationView, type NavigationViewRow } from './queries';

/** The views every client has (Inbox, Recent conversations, ...): a user may pin or hide them but not rename them. */
const BUILT_IN_FRAGMENTS = new Set([
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'scheduled',
  'reminders',
]);

/** Surrounding whitespace is no part of a fragment or a name, and neither may be blank. */
function cleanText(name: string, raw: string): string {
  const text = raw.trim();
  if (text === '') throw badRequest(`${name} cannot be blank`);
  return text;
}

function alreadyExists(): ApiError {
  return badRequest('Navigation view already exists.');
}

function requireView(stoa: Stoa, user: UserRow, fragment: string): NavigationViewRow {
  const view = stoa.navigationViews.byFragment(user.id, fragment);
  if (!view) throw new ApiError('BAD_REQUEST', 'Navigation view does not exist.', 404);
  return view;
}

function viewsOf(stoa: Stoa, user: UserRow): Record<string, unknown>[] {
  return stoa.navigationViews.forUser(user.id).map(presentNavigationView);
}

export const getNavigationViews = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => ({ navigation_views: viewsOf(stoa, user) }),
});

export const addNavigationViewView = endpoint<{ fragment: string; is_pinned: boolean; name?: string }>({
  params: {
    properties: { fragment: { type: 'string' }, is_pinned: { type: 'boolean' }, name: { type: 'string' } },
    required: ['fragment', 'is_pinned'],
  },
  view: ({ stoa, user, params }) => {
    const fragment = cleanText('fragment', params.fragment);
    const name = params.name === undefined ? undefined : cleanText('name', params.name);
    if (BUILT_IN_FRAGMENTS.has(fragment)) {
      if (name !== undefined) throw badRequest('Built-in views cannot have a custom name.');
    } else if (name === undefined) {
      throw badRequest('Custom views must have a valid name.');
    }
    if (stoa.navigationViews.byFragment(user.id, fragment)) throw alreadyExists();
    if (name !== undefined && stoa.navigationViews.byName(user.id, name)) throw alreadyExists();
    addNavigationView(stoa, user.id, fragment, params.is_pinned, name ?? null);
    return {};
  },
});

export const editNavigationViewView = endpoint<{ fragment: string; is_pinned?: boolean; name?: string }>({
  params: { properties: { fragment: { type: 'string' }, is_pinned: { type: 'boolean' }, name: { type: 'string' } } },
  view: ({ stoa, user, params }) => {
    const fragment = cleanText('fragment', params.fragment);
    const name = params.name === undefined ? undefined : cleanText('name', params.name);
    if (BUILT_IN_FRAGMENTS.has(fragment) && name !== undefined) throw badRequest('Built-in views cannot have a custom name.');
    if (name !== undefined && stoa.navigationViews.byName(user.id, name)) throw alreadyExists();
    const view = requireView(stoa, user, fragment);
    const changes = { ...(params.is_pinned === undefined ? {} : { is_pinned: params.is_pinned }), ...(name === undefined ? {} : { name }) };
    if (Object.keys(changes).length > 0) updateNavigationView(stoa, view, changes);
    return {};
  },
});

export const removeNavigationViewView = endpoint<{ fragment: string }>({
  params: { properties: { fragment: { type: 'string' } } },
  view: ({ stoa, user, params }) => {
    removeNavigationView(stoa, requireView(stoa, user, cleanText('fragment', params.fragment)));
    return {};
  },
});

/** Register state for fetch type `navigation_views`. */
export function navigationViewsState({ stoa, user }: StateContext): Record<string, unknown> {
  return { navigation_views: viewsOf(stoa, user) };
}
