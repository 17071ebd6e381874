import { endpoint, NO_PARAMS } from '../http/endpoint';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { Role, type UserRow } from '../users/queries';
import { addField, changeProfileValues, removeField, reorderFields, updateField, type ProfileChange } from './actions';
import { presentFields } from './present';
import { FieldType, type ProfileFieldRow } from './queries';
import { checkProfileValue, isUrl, type ProfileValue } from './values';
import { refuseBots, requireAdministrator } from '../users/access';

const NAME_LIMIT = 40;
const HINT_LIMIT = 80;
/** How many fields clients may show in a user's profile summary. */
const SUMMARY_LIMIT = 2;
const FIELD_TYPES: readonly number[] = Object.values(FieldType);

/** External-account subtypes whose label and link Zulip supplies itself. */
const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; hint: string }> = {
  twitter: { name: 'Twitter username', hint: '' },
  github: { name: 'GitHub username', hint: '' },
};

type FieldData = Record<string, string | Record<string, string>>;

function fieldNotFound(id: number) {
  return badRequest(`Field id ${id} not found.`);
}

function accessField(stoa: Stoa, id: number): ProfileFieldRow {
  const field = stoa.profileFields.byId(id);
  if (!field) throw fieldNotFound(id);
  return field;
}

/** Zulip's shape for field_data: each value a string or an object of strings. */
function checkFieldDataShape(data: Record<string, unknown>): FieldData {
  for (const value of Object.values(data)) {
    const isText = typeof value === 'string';
    const isTextMap =
      value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
    if (!isText && !isTextMap) throw badRequest('field_data contains a value that is not an allowed_type');
  }
  return data as FieldData;
}

/** Zulip's check of an object with exactly these keys, each a string that is not blank. */
function checkOnlyKeys(data: unknown, required: readonly string[], optional: readonly string[] = []): Record<string, string> {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw badRequest('field_data is not a dict');
  const record = data as Record<string, unknown>;
  for (const key of required) {
    if (!(key in record)) throw badRequest(`${key} key is missing from field_data`);
    if (typeof record[key] !== 'string') throw badRequest(`field_data["${key}"] is not a string`);
    if ((record[key] as string).trim() === '') throw badRequest(`field_data["${key}"] cannot be blank.`);
  }
  for (const key of optional) {
    if (key in record && typeof record[key] !== 'string') throw badRequest(`field_data["${key}"] is not a string`);
  }
  const unexpected = Object.keys(record).filter((key) => !required.includes(key) && !optional.includes(key));
  if (unexpected.length > 0) throw badRequest(`Unexpected arguments: ${unexpected.join(', ')}`);
  return record as Record<string, string>;
}

function checkSelectOptions(data: FieldData): void {
  if (Object.keys(data).length < 1) throw badRequest('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, option] of Object.entries(data)) {
    if (key.trim() === '') throw badRequest("'value' cannot be blank.");
    texts.add(checkOnlyKeys(option, ['text', 'order']).text);
  }
  if (texts.size !== Object.keys(data).length) throw badRequest('Field must not have duplicate choices.');
}

function checkExternalAccount(data: FieldData): void {
  const account = checkOnlyKeys(data, ['subtype'], ['url_pattern']);
  if (account.url_pattern !== undefined) {
    if (account.url_pattern.split('%(username)s').length !== 2) throw badRequest("URL pattern must contain '%(username)s'.");
    if (!isUrl(account.url_pattern.replace('%(username)s', 'username'))) throw badRequest('field_data["url_pattern"] is not a URL');
  }
  if (!(account.subtype in DEFAULT_EXTERNAL_ACCOUNTS)) {
    if (account.subtype !== 'custom') throw badRequest('Invalid external account type');
    if (account.url_pattern === undefined) throw badRequest('Custom external account must define URL pattern');
  }
}

function isDefaultExternalAccount(fieldType: number, data: FieldData): boolean {
  return fieldType === FieldType.EXTERNAL_ACCOUNT && typeof data.subtype === 'string' && data.subtype in DEFAULT_EXTERNAL_ACCOUNTS;
}

/** A field's whole definition, checked in the order Zulip checks it. */
function checkDefinition(field: { name: string; hint: string; field_type: number; data: FieldData; summary: boolean; matching: boolean }): void {
  if (field.field_type === FieldType.SELECT) checkSelectOptions(field.data);
  else if (field.field_type === FieldType.EXTERNAL_ACCOUNT) checkExternalAccount(field.data);
  // A default external account takes its label and hint from the server.
  if (!isDefaultExternalAccount(field.field_type, field.data)) {
    if (field.name.trim() === '') throw badRequest('Label cannot be blank.');
    if (field.hint.length > HINT_LIMIT) throw badRequest(`hint is too long (limit: ${HINT_LIMIT} characters)`);
    if (field.name.length > NAME_LIMIT) throw badRequest(`name is too long (limit: ${NAME_LIMIT} characters)`);
  }
  if (!FIELD_TYPES.includes(field.field_type)) throw badRequest('Invalid field type.');
  // Long text does not fit in a summary; user lists need client support that is not there yet.
  if (field.summary && (field.field_type === FieldType.LONG_TEXT || field.field_type === FieldType.USER)) {
    throw badRequest('Field type not supported for display in profile summary.');
  }
  // People are matched by names and handles: short text and external accounts (level 455).
  if (field.matching && field.field_type !== FieldType.SHORT_TEXT && field.field_type !== FieldType.EXTERNAL_ACCOUNT) {
    throw badRequest('Field type not supported for user matching.');
  }
}

function checkSummaryRoom(stoa: Stoa, wanted: boolean | undefined, exceptId?: number): void {
  if (wanted && stoa.profileFields.summaryCount(exceptId) >= SUMMARY_LIMIT) {
    throw badRequest(`Only ${SUMMARY_LIMIT} custom profile fields can be displayed in the profile summary.`);
  }
}

function checkNameFree(stoa: Stoa, name: string, exceptId?: number): void {
  const existing = stoa.profileFields.byName(name);
  if (existing && existing.id !== exceptId) throw badRequest('A field with that label already exists.');
}

/** Only lists of options and external accounts keep field_data. */
function storedFieldData(fieldType: number, data: FieldData): string {
  return fieldType === FieldType.SELECT || fieldType === FieldType.EXTERNAL_ACCOUNT ? JSON.stringify(data) : '';
}

const FIELD_ID = { field_id: /^\d+$/ };
const FLAGS = {
  display_in_profile_summary: { type: 'boolean' },
  required: { type: 'boolean' },
  editable_by_user: { type: 'boolean' },
  use_for_user_matching: { type: 'boolean' },
} as const;

export const getProfileFields = endpoint({
  params: NO_PARAMS,
  view: ({ stoa }) => ({ custom_fields: presentFields(stoa) }),
});

interface CreateParams {
  name: string;
  hint: string;
  field_type: number;
  field_data: Record<string, unknown>;
  display_in_profile_summary: boolean;
  required: boolean;
  editable_by_user: boolean;
  use_for_user_matching: boolean;
}

export const createProfileFieldView = endpoint<CreateParams>({
  params: {
    properties: {
      name: { type: 'string', default: '' },
      hint: { type: 'string', default: '' },
      field_type: { type: 'integer' },
      field_data: { type: 'object', default: {} },
      display_in_profile_summary: { type: 'boolean', default: false },
      required: { type: 'boolean', default: false },
      editable_by_user: { type: 'boolean', default: true },
      use_for_user_matching: { type: 'boolean', default: false },
    },
    required: ['field_type'],
  },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    const data = checkFieldDataShape(params.field_data);
    const summary = params.display_in_profile_summary;
    checkSummaryRoom(stoa, summary);
    let name = params.name.trim();
    let hint = params.hint;
    checkDefinition({ name, hint, field_type: params.field_type, data, summary, matching: params.use_for_user_matching });
    if (isDefaultExternalAccount(params.field_type, data)) {
      ({ name, hint } = DEFAULT_EXTERNAL_ACCOUNTS[data.subtype as string]);
    }
    checkNameFree(stoa, name);
    const id = addField(stoa, {
      name,
      hint,
      field_type: params.field_type,
      // A default external account keeps only its subtype; the server knows the rest.
      field_data: storedFieldData(params.field_type, isDefaultExternalAccount(params.field_type, data) ? { subtype: data.subtype } : data),
      display_in_profile_summary: summary ? 1 : 0,
      required: params.required ? 1 : 0,
      editable_by_user: params.editable_by_user ? 1 : 0,
      use_for_user_matching: params.use_for_user_matching ? 1 : 0,
    });
    return { id };
  },
});

interface UpdateParams {
  field_id: number;
  name?: string;
  hint?: string;
  field_data?: Record<string, unknown>;
  display_in_profile_summary?: boolean;
  required?: boolean;
  editable_by_user?: boolean;
  use_for_user_matching?: boolean;
}

export const updateProfileFieldView = endpoint<UpdateParams>({
  params: {
    properties: {
      field_id: { type: 'integer' },
      name: { type: 'string' },
      hint: { type: 'string' },
      field_data: { type: 'object' },
      ...FLAGS,
    },
    required: ['field_id'],
  },
  pathPatterns: FIELD_ID,
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    const field = accessField(stoa, params.field_id);
    checkSummaryRoom(stoa, params.display_in_profile_summary, field.id);
    const name = params.name?.trim() ?? field.name;
    const hint = params.hint ?? field.hint;
    const storedData = JSON.parse(field.field_data || '{}') as FieldData;
    const data = params.field_data === undefined ? storedData : checkFieldDataShape(params.field_data);
    // A default external account's label, hint and data are the server's, so only its flags change.
    if (isDefaultExternalAccount(field.field_type, storedData)) {
      const changesDefinition =
        name !== field.name || hint !== field.hint || JSON.stringify(data) !== JSON.stringify(storedData);
      if (changesDefinition) throw badRequest('Default custom field cannot be updated.');
    }
    const summary = params.display_in_profile_summary ?? field.display_in_profile_summary === 1;
    const matching = params.use_for_user_matching ?? field.use_for_user_matching === 1;
    checkDefinition({ name, hint, field_type: field.field_type, data, summary, matching });
    checkNameFree(stoa, name, field.id);
    const flag = (value: boolean | undefined, current: 0 | 1): 0 | 1 => (value === undefined ? current : value ? 1 : 0);
    updateField(stoa, {
      ...field,
      name,
      hint,
      field_data: storedFieldData(field.field_type, data),
      display_in_profile_summary: summary ? 1 : 0,
      required: flag(params.required, field.required),
      editable_by_user: flag(params.editable_by_user, field.editable_by_user),
      use_for_user_matching: matching ? 1 : 0,
    });
    return {};
  },
});

export const removeProfileFieldView = endpoint<{ field_id: number }>({
  params: { properties: { field_id: { type: 'integer' } }, required: ['field_id'] },
  pathPatterns: FIELD_ID,
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    removeField(stoa, accessField(stoa, params.field_id).id);
    return {};
  },
});

export const reorderProfileFieldsView = endpoint<{ order: number[] }>({
  params: { properties: { order: { type: 'array', items: { type: 'integer' } } }, required: ['order'] },
  authorize: requireAdministrator,
  view: ({ stoa, params }) => {
    const listed = new Set(params.order);
    if (stoa.profileFields.inOrder().some((field) => !listed.has(field.id))) throw badRequest('Invalid order mapping.');
    // A field takes its index in the list (the last one if listed twice); IDs of no field are ignored.
    const positions = new Map<number, number>();
    params.order.forEach((id, position) => positions.set(id, position));
    reorderFields(stoa, [...positions].filter(([id]) => stoa.profileFields.byId(id)));
    return {};
  },
});

/** One entry of a profile_data parameter; null (admin edits only) clears the value. */
export interface ProfileDataEntry {
  id: number;
  value: ProfileValue | null;
}

/** The schema of a profile_data list; `nullable` admits null values, which clear a field. */
export function profileDataSchema(nullable: boolean) {
  const valueTypes = nullable ? ['string', 'array', 'null'] : ['string', 'array'];
  return {
    type: 'array',
    items: {
      type: 'object',
      properties: { id: { type: 'integer' }, value: { type: valueTypes, items: { type: 'integer' } } },
      required: ['id', 'value'],
      additionalProperties: false,
    },
  };
}

/**
 * Checks profile changes for `target` made by `actor`, all before any is written. `clearEmpty`:
 * an empty value clears the field, as administrators' edits through PATCH /users/{id} do.
 */
export function checkProfileChanges(
  stoa: Stoa,
  actor: UserRow,
  entries: readonly ProfileDataEntry[],
  clearEmpty: boolean,
): ProfileChange[] {
  return entries.map(({ id, value }) => {
    const field = accessField(stoa, id);
    checkEditable(actor, field);
    const empty = value === null || value === '' || (Array.isArray(value) && value.length === 0);
    if (empty && (clearEmpty || value === null)) return { field, value: null };
    return { field, value: checkProfileValue(stoa, field, value!) };
  });
}

function checkEditable(actor: UserRow, field: ProfileFieldRow): void {
  if (actor.role > Role.ADMINISTRATOR && !field.editable_by_user) {
    throw badRequest('You are not allowed to change this field. Contact an administrator to update it.');
  }
}


export const updateOwnProfileDataView = endpoint<{ data: ProfileDataEntry[] }>({
  params: { properties: { data: profileDataSchema(false) }, required: ['data'] },
  // Bots have no profile.
  authorize: refuseBots,
  view: ({ stoa, user, params }) => {
    changeProfileValues(stoa, user.id, checkProfileChanges(stoa, user, params.data, false));
    return {};
  },
});

export const removeOwnProfileDataView = endpoint<{ data: number[] }>({
  params: { properties: { data: { type: 'array', items: { type: 'integer' } } }, required: ['data'] },
  // Bots have no profile.
  authorize: refuseBots,
  view: ({ stoa, user, params }) => {
    const changes = params.data.map((id) => {
      const field = accessField(stoa, id);
      checkEditable(user, field);
      return { field, value: null };
    });
    changeProfileValues(stoa, user.id, changes);
    return {};
  },
});
