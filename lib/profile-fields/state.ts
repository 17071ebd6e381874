import type { StateContext } from '../events/state-context';
import { presentFields } from './present';

/** Zulip's custom profile field types, by the names clients look them up with. */
const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Person picker' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

/** Register state for fetch type `custom_profile_fields`. */
export function customProfileFieldsState({ stoa }: StateContext): Record<string, unknown> {
  return { custom_profile_fields: presentFields(stoa), custom_profile_field_types: CUSTOM_PROFILE_FIELD_TYPES };
}
