import type { StateContext } from '../events/state-context';
import { endpoint, NO_PARAMS, type Call } from '../http/endpoint';
import { administratorRequired, badRequest } from '../http/errors';
import { BLANK_FIELD, FieldErrors } from '../http/field-errors';
import type { Stoa } from '../stoa';
import { Role } from '../users/queries';
import { addLinkifier, removeLinkifier, reorderLinkifiers, updateLinkifier } from './actions';
import { compilePattern, exampleGroups } from './patterns';
import type { LinkifierFields } from './queries';
import { fillReverseTemplate, parseReverseTemplate } from './reverse-templates';
import { INVALID_URL_TEMPLATE, templateVariables } from './url-templates';

const FILTER_ID = { filter_id: /^\d+$/ };
const LINKIFIER = {
  properties: {
    filter_id: { type: 'integer' },
    pattern: { type: 'string' },
    url_template: { type: 'string' },
    example_input: { type: 'string' },
    reverse_template: { type: 'string' },
    alternative_url_templates: { type: 'array', items: { type: 'string' } },
  },
  required: ['pattern', 'url_template'],
} as const;

interface LinkifierParams {
  pattern: string;
  url_template: string;
  example_input?: string;
  reverse_template?: string;
  alternative_url_templates?: string[];
}

function requireAdministrator({ user }: Call<unknown>): void {
  if (user.role > Role.ADMINISTRATOR) throw administratorRequired();
}

function linkifierNotFound() {
  return badRequest('Linkifier not found.');
}

/** An optional text field as sent: trimmed, and an empty one clears it (level 471). */
function optionalText(value: string | undefined, current: string | null): string | null {
  if (value === undefined) return current;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** The fields a request sets, over a linkifier's current ones (none for a new linkifier). */
function requestedFields(params: LinkifierParams, current?: LinkifierFields): LinkifierFields {
  return {
    pattern: params.pattern.trim(),
    url_template: params.url_template.trim(),
    example_input: optionalText(params.example_input, current?.example_input ?? null),
    reverse_template: optionalText(params.reverse_template, current?.reverse_template ?? null),
    alternative_url_templates:
      params.alternative_url_templates?.map((t) => t.trim()).filter((t) => t !== '') ?? current?.alternative_url_templates ?? [],
  };
}

/** The first of `variables` that is not one of the pattern's groups. */
function firstMissing(variables: readonly string[], groups: ReadonlySet<string>): string | undefined {
  return variables.filter((name) => !groups.has(name)).sort()[0];
}

/**
 * Checks a linkifier as Zulip does: both fields filled, the pattern valid RE2, the template
 * valid RFC 6570, its variables exactly the pattern's named groups, and the pattern unique.
 * The reverse-linkification fields (levels 471 and 478): each alternative URL template valid
 * RFC 6570 with only the pattern's groups; a reverse template only beside an example input,
 * which the pattern must match, and from whose groups it must write that example back.
 */
function checkLinkifier(stoa: Stoa, fields: LinkifierFields, id?: number): void {
  const { pattern, url_template: urlTemplate } = fields;
  const errors = new FieldErrors();
  if (pattern === '') errors.add('pattern', BLANK_FIELD);
  const variables = templateVariables(urlTemplate);
  if (urlTemplate === '') errors.add('url_template', BLANK_FIELD);
  else if (variables === undefined) errors.add('url_template', INVALID_URL_TEMPLATE);

  const compiled = compilePattern(pattern);
  const groups = new Set('error' in compiled ? [] : compiled.groups);
  if ('error' in compiled) {
    errors.add(null, compiled.error);
  } else if (variables !== undefined) {
    const notInPattern = firstMissing(variables, groups);
    const [notInTemplate] = compiled.groups.filter((name) => !variables.includes(name)).sort();
    if (notInPattern !== undefined) {
      errors.add(null, `Group '${notInPattern}' in URL template is not present in linkifier pattern.`);
    } else if (notInTemplate !== undefined) {
      errors.add(null, `Group '${notInTemplate}' in linkifier pattern is not present in URL template.`);
    }
  }
  for (const alternative of fields.alternative_url_templates) {
    const alternativeVariables = templateVariables(alternative);
    if (alternativeVariables === undefined) {
      errors.add('alternative_url_templates', INVALID_URL_TEMPLATE);
      break;
    }
    const notInPattern = 'error' in compiled ? undefined : firstMissing(alternativeVariables, groups);
    if (notInPattern !== undefined) {
      errors.add('alternative_url_templates', `Group '${notInPattern}' in alternative URL template is not present in linkifier pattern.`);
      break;
    }
  }
  checkReverseFields(fields, 'error' in compiled ? undefined : groups, errors);
  const existing = errors.has('pattern') ? undefined : stoa.linkifiers.byPattern(pattern);
  if (existing && existing.id !== id) errors.add(null, 'Realm filter with this Realm and Pattern already exists.');
  errors.check();
}

/** The example input and reverse template, against a pattern that compiled (`groups`) or not. */
function checkReverseFields(fields: LinkifierFields, groups: ReadonlySet<string> | undefined, errors: FieldErrors): void {
  const { example_input: example, reverse_template: reverse } = fields;
  const values = example === null || groups === undefined ? undefined : exampleGroups(fields.pattern, example);
  if (example !== null && groups !== undefined && values === undefined) {
    errors.add('example_input', 'Example input does not match the linkifier pattern.');
  }
  if (reverse === null) return;
  if (example === null) {
    errors.add('reverse_template', 'A reverse template needs an example input.');
    return;
  }
  const parts = parseReverseTemplate(reverse);
  if (parts === undefined) {
    errors.add('reverse_template', 'Invalid reverse template.');
    return;
  }
  if (groups === undefined) return;
  const variables = parts.flatMap((part) => ('variable' in part ? [part.variable] : []));
  const notInPattern = firstMissing(variables, groups);
  if (notInPattern !== undefined) {
    errors.add('reverse_template', `Group '${notInPattern}' in reverse template is not present in linkifier pattern.`);
  } else if (values !== undefined && fillReverseTemplate(parts, values) !== example) {
    errors.add('reverse_template', 'Reverse template does not turn the example input back into itself.');
  }
}

export const getLinkifiers = endpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => ({ linkifiers: stoa.linkifiers.realmLinkifiers() }),
});

export const addLinkifierView = endpoint<LinkifierParams>({
  params: LINKIFIER,
  view: (call) => {
    requireAdministrator(call);
    const fields = requestedFields(call.params);
    checkLinkifier(call.stoa, fields);
    return { id: addLinkifier(call.stoa, fields) };
  },
});

export const updateLinkifierView = endpoint<LinkifierParams & { filter_id: number }>({
  pathPatterns: FILTER_ID,
  params: LINKIFIER,
  view: (call) => {
    requireAdministrator(call);
    const { stoa, params } = call;
    const current = stoa.linkifiers.byId(params.filter_id);
    if (!current) throw linkifierNotFound();
    const fields = requestedFields(params, current);
    checkLinkifier(stoa, fields, params.filter_id);
    updateLinkifier(stoa, params.filter_id, fields);
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
