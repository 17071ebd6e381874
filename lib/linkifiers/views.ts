import type { StateContext } from '../events/state-context';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { badRequest } from '../http/errors';
import { BLANK_FIELD, FieldErrors } from '../http/field-errors';
import type { Stoa } from '../stoa';
import { addLinkifier, removeLinkifier, reorderLinkifiers, updateLinkifier } from './actions';
import { compilePattern, exampleGroups } from './patterns';
import type { LinkifierFields } from './queries';
import { expandReverseTemplate, ReverseTemplateError } from './reverse-templates';
import { INVALID_URL_TEMPLATE, templateVariables } from './url-templates';
import { requireAdministrator } from '../users/access';

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

/**
 * Zulip refuses a reverse template without an example input with its own error for a parameter
 * that needs another, naming the two as its settings page does; this wording is Stoa's.
 */
const REVERSE_TEMPLATE_WITHOUT_EXAMPLE = 'Example text is required when auto-conversion field is set.';

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
 * Checks a linkifier as Zulip's model does. The fields first: both filled, the template valid
 * RFC 6570, each alternative URL template (level 478) valid with only the pattern's groups.
 * Then the object as a whole, stopping at its first fault: the pattern valid RE2; a reverse
 * template only beside an example input (refused outright, without the field errors); the
 * example matched by the pattern and written back by the reverse template (level 471); the URL
 * template's variables exactly the pattern's named groups. Last, the pattern unique.
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
  const wholeObjectError = 'error' in compiled ? compiled.error : linkifierError(fields, groups, variables);
  if (wholeObjectError !== undefined) errors.add(null, wholeObjectError);
  const existing = errors.has('pattern') ? undefined : stoa.linkifiers.byPattern(pattern);
  if (existing && existing.id !== id) errors.add(null, 'Realm filter with this Realm and Pattern already exists.');
  errors.check();
}

/** The first fault of a linkifier whose pattern compiled (to `groups`) as a whole, if any. */
function linkifierError(fields: LinkifierFields, groups: ReadonlySet<string>, variables: readonly string[] | undefined): string | undefined {
  const { example_input: example, reverse_template: reverse } = fields;
  if (reverse !== null && example === null) throw badRequest(REVERSE_TEMPLATE_WITHOUT_EXAMPLE);
  if (example !== null) {
    const values = exampleGroups(fields.pattern, example);
    if (values === undefined) return 'Example input does not match the linkifier pattern.';
    if (reverse !== null) {
      try {
        if (expandReverseTemplate(reverse, values, groups) !== example) return 'Example text does not match auto-conversion field.';
      } catch (err) {
        if (err instanceof ReverseTemplateError) return err.message;
        throw err;
      }
    }
  }
  if (variables === undefined) return undefined;
  const notInPattern = firstMissing(variables, groups);
  if (notInPattern !== undefined) return `Group '${notInPattern}' in URL template is not present in linkifier pattern.`;
  const notInTemplate = firstMissing([...groups], new Set(variables));
  if (notInTemplate !== undefined) return `Group '${notInTemplate}' in linkifier pattern is not present in URL template.`;
  return undefined;
}

export const getLinkifiers = endpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => ({ linkifiers: stoa.linkifiers.realmLinkifiers() }),
});

export const addLinkifierView = endpoint<LinkifierParams>({
  params: LINKIFIER,
  authorize: requireAdministrator,
  view: (call) => {
    const fields = requestedFields(call.params);
    checkLinkifier(call.stoa, fields);
    return { id: addLinkifier(call.stoa, fields) };
  },
});

export const updateLinkifierView = endpoint<LinkifierParams & { filter_id: number }>({
  pathPatterns: FILTER_ID,
  params: LINKIFIER,
  authorize: requireAdministrator,
  view: (call) => {
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
  authorize: requireAdministrator,
  view: (call) => {
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
  authorize: requireAdministrator,
  view: (call) => {
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
