import type { StateContext } from '../events/state-context';
import { endpoint, NO_PARAMS, type Call } from '../http/endpoint';
import { administratorRequired, badRequest } from '../http/errors';
import { BLANK_FIELD, FieldErrors } from '../http/field-errors';
import type { Stoa } from '../stoa';
import { Role } from '../users/queries';
import { addLinkifier, removeLinkifier, reorderLinkifiers, updateLinkifier } from './actions';
import { compilePattern } from './patterns';
import { INVALID_URL_TEMPLATE, templateVariables } from './url-templates';

const FILTER_ID = { filter_id: /^\d+$/ };
const LINKIFIER = {
  properties: { filter_id: { type: 'integer' }, pattern: { type: 'string' }, url_template: { type: 'string' } },
  required: ['pattern', 'url_template'],
} as const;

function requireAdministrator({ user }: Call<unknown>): void {
  if (user.role > Role.ADMINISTRATOR) throw administratorRequired();
}

function linkifierNotFound() {
  return badRequest('Linkifier not found.');
}

/**
 * Checks a linkifier as Zulip does: both fields filled, the pattern valid RE2, the template
 * valid RFC 6570, its variables exactly the pattern's named groups, and the pattern unique.
 */
function checkLinkifier(stoa: Stoa, pattern: string, urlTemplate: string, id?: number): void {
  const errors = new FieldErrors();
  if (pattern === '') errors.add('pattern', BLANK_FIELD);
  const variables = templateVariables(urlTemplate);
  if (urlTemplate === '') errors.add('url_template', BLANK_FIELD);
  else if (variables === undefined) errors.add('url_template', INVALID_URL_TEMPLATE);

  const compiled = compilePattern(pattern);
  if ('error' in compiled) {
    errors.add(null, compiled.error);
  } else if (variables !== undefined) {
    const groups = new Set(compiled.groups);
    const [notInPattern] = variables.filter((name) => !groups.has(name)).sort();
    const [notInTemplate] = compiled.groups.filter((name) => !variables.includes(name)).sort();
    if (notInPattern !== undefined) {
      errors.add(null, `Group '${notInPattern}' in URL template is not present in linkifier pattern.`);
    } else if (notInTemplate !== undefined) {
      errors.add(null, `Group '${notInTemplate}' in linkifier pattern is not present in URL template.`);
    }
  }
  const existing = errors.has('pattern') ? undefined : stoa.linkifiers.byPattern(pattern);
  if (existing && existing.id !== id) errors.add(null, 'Realm filter with this Realm and Pattern already exists.');
  errors.check();
}

export const getLinkifiers = endpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => ({ linkifiers: stoa.linkifiers.realmLinkifiers() }),
});

export const addLinkifierView = endpoint<{ pattern: string; url_template: string }>({
  params: LINKIFIER,
  view: (call) => {
    requireAdministrator(call);
    const [pattern, urlTemplate] = [call.params.pattern.trim(), call.params.url_template.trim()];
    checkLinkifier(call.stoa, pattern, urlTemplate);
    return { id: addLinkifier(call.stoa, pattern, urlTemplate) };
  },
});

export const updateLinkifierView = endpoint<{ filter_id: number; pattern: string; url_template: string }>({
  pathPatterns: FILTER_ID,
  params: LINKIFIER,
  view: (call) => {
    requireAdministrator(call);
    const { stoa, params } = call;
    if (!stoa.linkifiers.byId(params.filter_id)) throw linkifierNotFound();
    const [pattern, urlTemplate] = [params.pattern.trim(), params.url_template.trim()];
    checkLinkifier(stoa, pattern, urlTemplate, params.filter_id);
    updateLinkifier(stoa, params.filter_id, pattern, urlTemplate);
    return {};
  },
});

export const removeLinkifierView = endpoint<{ filter_id: number }>({
  pathPatterns: FILTER_ID,
  params: { properties: { filter_id: { type: 'integer' } } },
  view: (call) => {
    requireAdministrator(call);
    if (!call.stoa.linkifiers.byId(call.params.filter_id)) throw linkifierNotFound();
    removeLinkifier(call.stoa, call.params.filter_id);
    return {};
  },
});

export const reorderLinkifiersView = endpoint<{ ordered_linkifier_ids: number[] }>({
  params: {
    properties: { ordered_linkifier_ids: { type: 'array', items: { type: 'integer' } } },
    required: ['ordered_linkifier_ids'],
  },
  view: (call) => {
    requireAdministrator(call);
    const ids = call.params.ordered_linkifier_ids;
    const unique = new Set(ids);
    if (unique.size < ids.length) throw badRequest('The ordered list must not contain duplicated linkifiers');
    const existing = call.stoa.linkifiers.realmLinkifiers();
    if (existing.length !== unique.size || existing.some((l) => !unique.has(l.id))) {
      throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
    }
    if (existing.length > 0) reorderLinkifiers(call.stoa, ids);
    return {};
  },
});

/**
 * Register state for fetch type `realm_linkifiers`. Clients without the
 * linkifier_url_template capability cannot read templates and get none.
 */
export function realmLinkifiersState({ stoa, queue }: StateContext): Record<string, unknown> {
  return { realm_linkifiers: queue.capabilities.linkifier_url_template ? stoa.linkifiers.realmLinkifiers() : [] };
}

/** The legacy fetch type `realm_filters`: always empty since Zulip moved to URL templates. */
export function realmFiltersState(): Record<string, unknown> {
  return { realm_filters: [] };
}
