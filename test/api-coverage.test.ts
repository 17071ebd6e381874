/**
 * Which operations of Zulip 10.2's API Stoa does not serve: every operation of zulip.yaml
 * must have a route in lib/http/routes.ts, or be listed below with the reason it has none.
 * The list is meant to shrink: an entry whose operation has since got a route fails the test
 * until it is removed, so the README's table of what is implemented stays honest.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import YAML from 'yaml';
import { ROUTES } from '../lib/http/routes';

const YAML_PATH = path.resolve(__dirname, '../../shared/zulip/zulip.yaml');

/** Operations zulip.yaml describes that Stoa does not serve, as 'METHOD /template', with why. */
const NOT_SERVED = new Map<string, string>([
  // Pages of Zulip's documentation written as operations; no server has them.
  ['POST /real-time', 'documentation page, not an endpoint'],
  ['POST /rest-error-handling', 'documentation page, not an endpoint'],
  ['POST /zulip-outgoing-webhook', 'the request Zulip sends to outgoing-webhook bots, not an endpoint it serves'],
]);

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * A route's path in zulip.yaml's template form: `:name` and Express's catch-all `*name` (the
 * upload path, whose file name may hold slashes) become `{name}`.
 */
function template(routePath: string): string {
  return routePath.replace(/[:*](\w+)/g, '{$1}');
}

function zulipOperations(): string[] {
  const doc = YAML.parse(fs.readFileSync(YAML_PATH, 'utf8'), { maxAliasCount: -1 }) as {
    paths: Record<string, Partial<Record<(typeof METHODS)[number], unknown>>>;
  };
  return Object.entries(doc.paths).flatMap(([pathTemplate, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${pathTemplate}`),
  );
}

test('every operation of zulip.yaml has a route, or is listed with the reason it has none', (t) => {
  if (!fs.existsSync(YAML_PATH)) return t.skip('../shared/zulip/zulip.yaml not found: API coverage not checked');
  const served = new Set(ROUTES.map((route) => `${route.method} ${template(route.path)}`));
  const operations = zulipOperations();
  const missing = operations.filter((operation) => !served.has(operation) && !NOT_SERVED.has(operation));
  assert.deepEqual(missing, [], 'operations of zulip.yaml without a route (add one, or list it in NOT_SERVED with a reason)');
  const nowServed = [...NOT_SERVED.keys()].filter((operation) => served.has(operation));
  assert.deepEqual(nowServed, [], 'listed as not served but routed: remove them from NOT_SERVED');
  const unknown = [...NOT_SERVED.keys()].filter((operation) => !operations.includes(operation));
  assert.deepEqual(unknown, [], 'listed as not served but not in zulip.yaml');
  t.diagnostic(`${operations.length - NOT_SERVED.size} of ${operations.length} operations served`);
});

test('the upload download route counts as zulip.yaml\'s GET /user_uploads/{realm_id_str}/{filename}', () => {
  const route = ROUTES.find((r) => r.method === 'GET' && r.path.startsWith('/user_uploads/'));
  assert.ok(route, 'a GET /user_uploads/... route exists');
  assert.equal(template(route.path), '/user_uploads/{realm_id_str}/{filename}');
});
