import { badRequest, type ApiError } from './errors';

/**
 * Zulip validates organization objects (linkifiers, playgrounds) as Django models: it
 * answers the first message, with every message by field in `errors`, fields first and
 * the object-wide ones (`__all__`) last.
 */
export class FieldErrors {
  private readonly byField = new Map<string, string[]>();
  private readonly general: string[] = [];

  /** An error of one field; `null` for the object as a whole. */
  add(field: string | null, message: string): void {
    if (field === null) this.general.push(message);
    else this.byField.set(field, [...(this.byField.get(field) ?? []), message]);
  }

  has(field: string): boolean {
    return this.byField.has(field);
  }

  /** Throws the errors found, if any. */
  check(): void {
    const errors = this.error();
    if (errors) throw errors;
  }

  private error(): ApiError | undefined {
    const all: Record<string, string[]> = Object.fromEntries(this.byField);
    if (this.general.length > 0) all.__all__ = this.general;
    const first = Object.values(all)[0]?.[0];
    return first === undefined ? undefined : badRequest(first, { errors: all });
  }
}

/** Django's word for a required text left empty. */
export const BLANK_FIELD = 'This field cannot be blank.';
