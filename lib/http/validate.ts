import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { ApiError, badRequest, missingArgument } from './errors';

/** A JSON schema for one parameter; `type` decides how its raw string is decoded. */
export type ParamSchema = Record<string, unknown> & { type?: string | string[] };

/** The parameters of one endpoint: an object schema whose properties are the parameter names. */
export interface ParamsSchema {
  properties: Record<string, ParamSchema>;
  required?: readonly string[];
}

export interface ParsedParams<P> {
  params: P;
  /** Parameters the client sent that this endpoint does not know, sorted as Zulip sorts them. */
  ignored: string[];
}

// One Ajv instance for the whole process; `useDefaults` fills omitted parameters from the
// schema, so every default lives next to the parameter's type. Made with the first schema
// compiled, not at start-up: making one compiles JSON Schema's own meta-schema.
let ajvInstance: Ajv | undefined;
const ajv = () =>
  (ajvInstance ??= new Ajv({ allErrors: false, useDefaults: true, coerceTypes: false, strict: true, allowUnionTypes: true }));

function typesOf(schema: ParamSchema): string[] | undefined {
  if (schema.type === undefined) return undefined;
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

const valueValidators = new WeakMap<ParamSchema, ValidateFunction>();

/** Whether a value (already decoded, e.g. read from a file) satisfies a parameter's schema. */
export function valueFitsSchema(schema: ParamSchema, value: unknown): boolean {
  let validate = valueValidators.get(schema);
  if (!validate) valueValidators.set(schema, (validate = ajv().compile(schema)));
  return validate(value) as boolean;
}

/**
 * Zulip clients send strings as they are and every other value JSON-encoded. A parameter that
 * may be either (an anchor of "newest" or 42, a recipient given by name or ID) is decoded as
 * JSON when it parses and kept as text otherwise.
 */
function decode(name: string, raw: string, schema: ParamSchema): unknown {
  const types = typesOf(schema);
  if (types?.length === 1 && types[0] === 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    if (types === undefined || types.includes('string')) return raw;
    throw badRequest(`${name} is not valid JSON`);
  }
}

/** Turns ajv's `/narrow/0/operator` into Zulip's `narrow[0]["operator"]`. */
function varName(instancePath: string): string {
  const [, top, ...rest] = instancePath.split('/');
  const decoded = rest.map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  return top + decoded.map((part) => (/^\d+$/.test(part) ? `[${part}]` : `[${JSON.stringify(part)}]`)).join('');
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'an integer',
  number: 'a float',
  boolean: 'a boolean',
  string: 'a string',
  array: 'a list',
  object: 'a dict',
};

/** The first validation error, in the words Zulip's own parameter parser uses. */
function toApiError(error: ErrorObject): ApiError {
  const name = varName(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      if (error.instancePath === '') return missingArgument(String(params.missingProperty));
      return badRequest(`${name}["${String(params.missingProperty)}"] is missing`);
    case 'type': {
      const expected = String(params.type);
      return badRequest(expected in TYPE_NAMES ? `${name} is not ${TYPE_NAMES[expected]}` : `Invalid ${name}`);
    }
    case 'maxLength':
      return badRequest(`${name} is too long (limit: ${String(params.limit)} characters)`);
    case 'minLength':
      return badRequest(params.limit === 1 ? `${name} cannot be blank` : `${name} is too short.`);
    case 'minimum':
    case 'exclusiveMinimum':
      return badRequest(`${name} is too small`);
    case 'maximum':
    case 'exclusiveMaximum':
      return badRequest(`${name} is too large`);
    case 'additionalProperties':
      return badRequest(`Argument "${String(params.additionalProperty)}" at ${name} is unexpected`);
    default:
      return badRequest(`Invalid ${name}`);
  }
}

/**
 * Turns an endpoint's parameter schema into a parser from raw request parameters (body, query
 * and path, all strings) to typed, defaulted values. The schema is compiled once, when the
 * endpoint is first called: compiling every endpoint's schema up front would cost most of
 * the server's start-up time.
 */
export function compileParams<P>(schema: ParamsSchema, pathParams: readonly string[] = []) {
  let compiled: ValidateFunction | undefined;
  const validator = (): ValidateFunction =>
    (compiled ??= ajv().compile({
      type: 'object',
      properties: schema.properties,
      required: [...(schema.required ?? [])],
      additionalProperties: false,
    }));
  const known = new Set(Object.keys(schema.properties));
  const fromPath = new Set(pathParams);

  return function parse(raw: Map<string, string>, path: Record<string, string>): ParsedParams<P> {
    const values: Record<string, unknown> = {};
    const ignored: string[] = [];
    for (const [name, value] of raw) {
      if (fromPath.has(name)) continue; // a path parameter is only ever taken from the path
      if (known.has(name)) values[name] = decode(name, value, schema.properties[name]);
      else ignored.push(name);
    }
    for (const name of fromPath) values[name] = decode(name, path[name], schema.properties[name] ?? {});
    const validate = validator();
    if (!validate(values)) throw toApiError(validate.errors![0]);
    return { params: values as P, ignored: ignored.sort() };
  };
}
