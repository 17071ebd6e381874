/**
 * Self-tests of test/support/openapi.ts: before trusting it to judge the
 * server, check that it accepts what Zulip documents and rejects what it
 * should. Examples are read from zulip.yaml at test time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import {
  assertValidEvent,
  assertValidResponse,
  eventProblems,
  matchOperation,
  openapiAvailable,
  operationProblems,
  responseProblems,
  skipReason,
} from './support/openapi';

type JsonObject = { [key: string]: unknown };

const YAML_PATH = path.resolve(__dirname, '../../shared/zulip/zulip.yaml');

/**
 * Documented 200 examples that are wrong by Zulip 10.2's own schema, as
 * 'METHOD /template'. They are listed rather than loosening the validator.
 * (None so far: every 200 example in 10.2 passes.)
 */
const KNOWN_BAD_EXAMPLES = new Set<string>([]);

/**
 * Documented event examples that are wrong, as 'type/op', with the only
 * problem expected. These ten omit the `id` every delivered event carries
 * (the validator demands it although most variants don't list it as required).
 */
const MISSING_ID = '(body): missing required property "id"';
const KNOWN_BAD_EVENT_EXAMPLES = new Map<string, string>([
  ['realm_export_consent/', MISSING_ID],
  ['drafts/add', MISSING_ID],
  ['drafts/update', MISSING_ID],
  ['drafts/remove', MISSING_ID],
  ['saved_snippets/add', MISSING_ID],
  ['saved_snippets/update', MISSING_ID],
  ['saved_snippets/remove', MISSING_ID],
  ['scheduled_messages/add', MISSING_ID],
  ['scheduled_messages/update', MISSING_ID],
  ['scheduled_messages/remove', MISSING_ID],
]);

let parsed: JsonObject | undefined;

/** The raw YAML, independently of the validator's own (patched) copy. */
function doc(): JsonObject {
  parsed ??= YAML.parse(fs.readFileSync(YAML_PATH, 'utf8'), { maxAliasCount: -1 }) as JsonObject;
  return parsed;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deref(node: unknown): unknown {
  let current = node;
  while (isObject(current) && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((parent, key) => (parent as JsonObject)[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc());
  }
  return current;
}

/** The application/json part of an operation's 200 response. */
function successContent(method: string, template: string): JsonObject {
  const operation = ((doc().paths as JsonObject)[template] as JsonObject)[method] as JsonObject;
  const response = deref((operation.responses as JsonObject)['200']) as JsonObject;
  return (response.content as JsonObject)['application/json'] as JsonObject;
}

/**
 * Whole-body examples of a response: on the content, under `examples`, and on
 * the schema or any branch it is composed of (Zulip usually puts the example
 * in the closed allOf branch). Not inside `properties`: those describe a field.
 */
function examplesOf(content: JsonObject): unknown[] {
  const found = new Set<unknown>();
  if ('example' in content) found.add(content.example);
  for (const named of Object.values(isObject(content.examples) ? content.examples : {})) {
    if (isObject(named) && 'value' in named) found.add(named.value);
  }
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    const schema = deref(node);
    if (!isObject(schema) || seen.has(schema)) return;
    seen.add(schema);
    if ('example' in schema) found.add(schema.example);
    for (const key of ['allOf', 'oneOf', 'anyOf']) {
      if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach(walk);
    }
  };
  walk(content.schema);
  return [...found];
}

function exampleOf(method: string, template: string): JsonObject {
  const [example] = examplesOf(successContent(method, template));
  assert.ok(isObject(example), `zulip.yaml has an example for ${method.toUpperCase()} ${template}`);
  return structuredClone(example);
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

test('documented examples of GET /server_settings and GET /users/me validate', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  assert.deepEqual(responseProblems('GET', '/api/v1/server_settings', 200, exampleOf('get', '/server_settings')), []);
  assert.deepEqual(responseProblems('GET', '/api/v1/users/me', 200, exampleOf('get', '/users/me')), []);
  assertValidResponse('GET', '/users/me?foo=1', 200, exampleOf('get', '/users/me'));
});

test('a body missing a required field fails', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  const body = exampleOf('get', '/users/me');
  delete body.msg;
  const problems = responseProblems('GET', '/api/v1/users/me', 200, body);
  assert.ok(problems.some((problem) => problem.includes('"msg"')), problems.join('\n'));
  assert.throws(() => assertValidResponse('GET', '/api/v1/users/me', 200, body), assert.AssertionError);
});

test('an unknown property fails where the schema is closed', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  const body = { ...exampleOf('get', '/users/me'), surprise: true };
  const problems = responseProblems('GET', '/api/v1/users/me', 200, body);
  assert.ok(problems.some((problem) => problem.includes('"surprise"')), problems.join('\n'));
});

test('null is accepted only where the schema is nullable', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  const user = {
    user_id: 5,
    delivery_email: null, // nullable in Zulip's User
    email: 'user5@example.com',
    full_name: 'Iago',
    date_joined: '2019-10-20T07:50:53.728864+00:00',
    is_active: true,
    is_owner: false,
    is_admin: true,
    is_guest: false,
    is_bot: false,
    bot_type: null,
    role: 200,
    timezone: '',
    avatar_url: null,
    avatar_version: 1,
    profile_data: {},
  };
  const ok = { result: 'success', msg: '', user };
  assert.deepEqual(responseProblems('GET', '/api/v1/users/5', 200, ok), []);
  const bad = { result: 'success', msg: '', user: { ...user, full_name: null } };
  const problems = responseProblems('GET', '/api/v1/users/5', 200, bad);
  assert.ok(problems.some((problem) => problem.startsWith('/user/full_name')), problems.join('\n'));
});

test('path matching prefers literals, then integer parameters', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  assert.equal(matchOperation('GET', '/api/v1/users/me'), '/users/me');
  assert.equal(matchOperation('GET', '/users/me?client_gravatar=true'), '/users/me');
  assert.equal(matchOperation('GET', '/api/v1/users/5'), '/users/{user_id}');
  assert.equal(matchOperation('GET', '/api/v1/users/a@b.c'), '/users/{email}');
  assert.equal(matchOperation('GET', '/api/v1/users/a%40b.c'), '/users/{email}');
  assert.equal(matchOperation('DELETE', '/api/v1/users/5'), '/users/{user_id}');
  assert.equal(matchOperation('DELETE', '/api/v1/users/a@b.c'), undefined); // only by ID
  assert.equal(matchOperation('GET', '/api/v1/users/me/subscriptions'), '/users/me/subscriptions');
  assert.equal(matchOperation('GET', '/api/v1/no/such/endpoint'), undefined);
  // The body of /users/me would not pass as a /users/{user_id} body, so matching matters.
  assert.deepEqual(responseProblems('GET', '/api/v1/users/me', 200, exampleOf('get', '/users/me')), []);
  assert.notDeepEqual(responseProblems('GET', '/api/v1/users/5', 200, exampleOf('get', '/users/me')), []);
});

test('unknown endpoints: a success is a problem, an error is checked for shape', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  assert.deepEqual(responseProblems('GET', '/api/v1/no_such_thing', 200, { result: 'success', msg: '' }), [
    'no operation in zulip.yaml for GET /no_such_thing',
  ]);
  const notFound = { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' };
  assert.deepEqual(responseProblems('GET', '/api/v1/no_such_thing', 404, notFound), []);
  assert.notDeepEqual(responseProblems('GET', '/api/v1/no_such_thing', 404, { result: 'error', msg: 'x' }), []);
});

test('error bodies: extra fields allowed, result/msg/code required', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  const missing = {
    result: 'error',
    msg: "Missing 'content' argument",
    code: 'REQUEST_VARIABLE_MISSING',
    var_name: 'content',
  };
  assert.deepEqual(responseProblems('POST', '/api/v1/messages', 400, missing), []);
  assertValidResponse('POST', '/api/v1/messages', 400, missing);
  const { code: _code, ...withoutCode } = missing;
  assert.ok(responseProblems('POST', '/api/v1/messages', 400, withoutCode).some((p) => p.includes('"code"')));
  assert.notDeepEqual(responseProblems('POST', '/api/v1/messages', 400, { ...missing, result: 'success' }), []);
});

test('events: heartbeat with and without id', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  assert.deepEqual(eventProblems({ type: 'heartbeat', id: 3 }), []);
  assertValidEvent({ type: 'heartbeat', id: 3 });
  assert.notDeepEqual(eventProblems({ type: 'heartbeat' }), []);
  assert.throws(() => assertValidEvent({ type: 'heartbeat' }), assert.AssertionError);
  assert.deepEqual(eventProblems({ type: 'no_such_event', id: 1 }), ['no event in zulip.yaml for type "no_such_event"']);
  // Problems name the variant meant by type and op, not all 77 of them.
  const problems = eventProblems({ type: 'stream', op: 'delete', id: 1, streams: 'x' });
  assert.ok(problems.length > 0 && problems.every((p) => p.startsWith('[stream/delete]')), problems.join('\n'));
});

test('fields newer than Zulip 10.2 that the server implements are accepted', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  const channel = exampleOf('get', '/streams').streams as JsonObject[];
  const newer = {
    topics_policy: 'disable_empty_topic',
    folder_id: null,
    can_delete_any_message_group: 2,
    can_delete_own_message_group: { direct_members: [1], direct_subgroups: [] },
    can_move_messages_out_of_channel_group: 3,
    can_move_messages_within_channel_group: 3,
  };
  const body = { result: 'success', msg: '', streams: [{ ...channel[0], ...newer }] };
  assert.deepEqual(responseProblems('GET', '/api/v1/streams', 200, body), []);
  const wrongPolicy = { ...body, streams: [{ ...channel[0], topics_policy: 'sometimes' }] };
  assert.notDeepEqual(responseProblems('GET', '/api/v1/streams', 200, wrongPolicy), []);
  assert.deepEqual(
    eventProblems({ type: 'stream', op: 'update', id: 4, stream_id: 1, name: 'x', property: 'folder_id', value: null }),
    [],
  );
  assert.deepEqual(responseProblems('POST', '/api/v1/mobile_push/e2ee/test_notification', 200, { result: 'success', msg: '' }), []);
  const subscription = {
    ...((exampleOf('get', '/users/me/subscriptions').subscriptions as JsonObject[])[0]),
    ...newer,
    partial_subscribers: [1, 2],
  };
  assert.deepEqual(eventProblems({ type: 'subscription', op: 'add', id: 5, subscriptions: [subscription] }), []);
});

test('names the specification uses instead of Zulip 10.2\'s are accepted', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  const presence = { result: 'success', msg: '', presence_last_update_id: 3, legacy_mirror_active: false };
  assert.deepEqual(responseProblems('POST', '/api/v1/users/me/presence', 200, presence), []);
  const reaction = { emoji_name: 'octopus', emoji_code: 'octopus', reaction_type: 'service_extra_emoji', user_id: 9 };
  const message = { ...(exampleOf('get', '/messages/{message_id}').message as JsonObject), reactions: [reaction] };
  assert.deepEqual(responseProblems('GET', '/api/v1/messages/16', 200, { result: 'success', msg: '', message }), []);
  const unknownType = { ...message, reactions: [{ ...reaction, reaction_type: 'other_emoji' }] };
  assert.notDeepEqual(responseProblems('GET', '/api/v1/messages/16', 200, { result: 'success', msg: '', message: unknownType }), []);
});

test('every 200 response schema compiles and every documented 200 example validates', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  let operations = 0;
  let validated = 0;
  const failures: string[] = [];
  for (const [template, item] of Object.entries(doc().paths as JsonObject)) {
    for (const method of HTTP_METHODS) {
      const operation = (item as JsonObject)[method];
      if (!isObject(operation) || !isObject(operation.responses) || !('200' in operation.responses)) continue;
      operations++;
      const name = `${method.toUpperCase()} ${template}`;
      // An empty object compiles the schema and shows whether it compiled.
      const compiled = operationProblems(method, template, 200, {});
      assert.ok(!compiled.some((p) => p.startsWith('schema validator failed')), `${name}: ${compiled.join('; ')}`);
      const content = deref(deref(operation.responses['200']));
      const json = isObject(content) && isObject(content.content) ? content.content['application/json'] : undefined;
      if (!isObject(json)) continue;
      for (const example of examplesOf(json)) {
        const problems = operationProblems(method, template, 200, example);
        if (KNOWN_BAD_EXAMPLES.has(name)) continue;
        if (problems.length > 0) failures.push(`${name}:\n    ${problems.join('\n    ')}`);
        else validated++;
      }
    }
  }
  t.diagnostic(`${operations} operations with a 200 response; ${validated} documented examples validated`);
  assert.deepEqual(failures, []);
  assert.ok(validated > 50, `only ${validated} examples validated`);
});

test('every documented event example validates', (t) => {
  if (!openapiAvailable) return t.skip(skipReason);
  const content = successContent('get', '/events');
  const closed = ((content.schema as JsonObject).allOf as JsonObject[]).find((branch) => isObject(branch.properties));
  const variants = (((closed?.properties as JsonObject).events as JsonObject).items as JsonObject).oneOf as unknown[];
  const failures: string[] = [];
  let validated = 0;
  for (const variant of variants) {
    for (const example of examplesOf({ schema: variant })) {
      const { type, op } = example as JsonObject;
      const knownProblem = KNOWN_BAD_EVENT_EXAMPLES.get(`${String(type)}/${op === undefined ? '' : String(op)}`);
      const problems = eventProblems(example);
      if (knownProblem !== undefined) {
        // Still checked: the known flaw must be the only one.
        assert.deepEqual(problems, [knownProblem], `${String(type)}/${String(op)}`);
        assert.deepEqual(eventProblems({ ...(example as JsonObject), id: 1 }), []);
      } else if (problems.length > 0) {
        failures.push(`${JSON.stringify(example).slice(0, 80)}:\n    ${problems.join('\n    ')}`);
      } else {
        validated++;
      }
    }
  }
  t.diagnostic(`${variants.length} event variants; ${validated} documented event examples validated`);
  assert.deepEqual(failures, []);
  assert.ok(validated > 50, `only ${validated} event examples validated`);
});
