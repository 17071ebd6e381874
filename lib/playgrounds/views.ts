import type { StateContext } from '../events/state-context';
import { endpoint } from '../http/endpoint';
import { badRequest, missingArgument } from '../http/errors';
import { BLANK_FIELD, FieldErrors } from '../http/field-errors';
import { INVALID_URL_TEMPLATE, templateVariables } from '../linkifiers/url-templates';
import type { Stoa } from '../stoa';
import { addPlayground, removePlayground } from './actions';
import { presentPlayground } from './queries';
import { requireAdministrator } from '../users/access';

/** Zulip's longest language name. */
const MAX_LANGUAGE_LENGTH = 40;
/** The characters a code block's language may have; `+-.` is a range, so `,` is in it too, as on Zulip. */
const LANGUAGE_CHARACTERS = /^[ a-zA-Z0-9_+-./#]*$/;

interface PlaygroundParams {
  name: string;
  url_template: string;
  highlighter_language?: string;
  pygments_language?: string;
}

/** The language by the specification's name or Zulip's, checked as Zulip checks it. */
function languageParam(params: PlaygroundParams): string {
  const [name, value] =
    params.highlighter_language !== undefined
      ? ['highlighter_language', params.highlighter_language]
      : ['pygments_language', params.pygments_language];
  if (value === undefined) throw missingArgument('highlighter_language');
  if (Array.from(value).length > MAX_LANGUAGE_LENGTH) {
    throw badRequest(`${name} is too long (limit: ${MAX_LANGUAGE_LENGTH} characters)`);
  }
  if (!LANGUAGE_CHARACTERS.test(value)) throw badRequest('Invalid characters in pygments language');
  return value.trim();
}

/** A playground's template must be RFC 6570 with `code` as its only variable; a name and language are unique together. */
function checkPlayground(stoa: Stoa, name: string, language: string, urlTemplate: string): void {
  const errors = new FieldErrors();
  const variables = templateVariables(urlTemplate);
  if (urlTemplate === '') errors.add('url_template', BLANK_FIELD);
  else if (variables === undefined) errors.add('url_template', INVALID_URL_TEMPLATE);
  if (name === '') errors.add('name', BLANK_FIELD);
  if (language === '') errors.add('pygments_language', BLANK_FIELD);
  if (variables !== undefined && !variables.includes('code')) {
    errors.add(null, 'Missing the required variable "code" in the URL template');
  } else if (variables !== undefined && variables.length !== 1) {
    errors.add(null, '"code" should be the only variable present in the URL template');
  }
  if (!errors.has('name') && !errors.has('pygments_language') && stoa.playgrounds.byLanguageAndName(language, name)) {
    errors.add(null, 'Realm playground with this Realm, Pygments language and Name already exists.');
  }
  errors.check();
}

export const addPlaygroundView = endpoint<PlaygroundParams>({
  params: {
    properties: {
      name: { type: 'string' },
      url_template: { type: 'string' },
      highlighter_language: { type: 'string' },
      pygments_language: { type: 'string' },
    },
    required: ['name', 'url_template'],
  },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    const language = languageParam(params);
    const [name, urlTemplate] = [params.name.trim(), params.url_template.trim()];
    checkPlayground(stoa, name, language, urlTemplate);
    return { id: addPlayground(stoa, name, language, urlTemplate) };
  },
});

export const removePlaygroundView = endpoint<{ playground_id: number }>({
  pathPatterns: { playground_id: /^\d+$/ },
  params: { properties: { playground_id: { type: 'integer' } } },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    if (!stoa.playgrounds.byId(params.playground_id)) throw badRequest('Invalid playground');
    removePlayground(stoa, params.playground_id);
    return {};
  },
});

/** Register state for fetch type `realm_playgrounds`. */
export function realmPlaygroundsState({ stoa }: StateContext): Record<string, unknown> {
  return { realm_playgrounds: stoa.playgrounds.all().map(presentPlayground) };
}
