/**
 * Whether the feature level Stoa claims is honest about its endpoints. Every operation of Zulip
 * 12's OpenAPI description (zulip-12.yaml, level 488) and every REST route of Zulip 10.2's URL
 * table (url-routes-10.2.txt) must have a route in lib/http/routes.ts, or be listed below with
 * the reason it has none; and every endpoint that api-changelog-12.md introduces at a level up to
 * ZULIP_FEATURE_LEVEL must be routed. The lists are meant to shrink: an entry whose operation has
 * since got a route fails the test until it is removed.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import YAML from 'yaml';
import { ROUTES } from '../lib/http/routes';
import { ZULIP_FEATURE_LEVEL } from '../lib/version';

const SHARED = path.resolve(__dirname, '../../shared/zulip');
const YAML_12 = path.join(SHARED, 'zulip-12.yaml');
const URL_ROUTES = path.join(SHARED, 'url-routes-10.2.txt');
const CHANGELOG_12 = path.join(SHARED, 'api-changelog-12.md');

/**
 * What Stoa will never serve, as 'METHOD /template' (Zulip's spelling), with why: billing, AI
 * summaries, and pages of Zulip's documentation written as operations.
 */
const NEVER_SERVED = new Map<string, string>([
  ['POST /real-time', 'documentation page, not an endpoint'],
  ['POST /rest-error-handling', 'documentation page, not an endpoint'],
  ['POST /zulip-outgoing-webhook', 'the request Zulip sends to outgoing-webhook bots, not an endpoint it serves'],
  ['GET /json/self-hosted-billing', 'billing: a self-hosted Stoa bills nobody'],
  ['GET /messages/summary', 'AI topic summaries: Stoa has no language model'],
  ['POST /remotes/push/e2ee/register', "the push bouncer's own endpoint; Stoa relays, it is not a bouncer"],
  // Served outside the API's route table, at the root where Zulip serves them (lib/app.ts).
  ['GET /user_uploads/download/{realm_id_str}/{filename}', 'served by lib/app.ts, outside /api/v1'],
  ['GET /user_uploads/thumbnail/{realm_id_str}/{filename}/{thumbnail_format}', 'served by lib/app.ts, outside /api/v1'],
  ['GET /thumbnail', 'served by lib/app.ts, outside /api/v1'],
]);

/**
 * Endpoints Stoa should serve and does not yet, with what is missing. Each is a gap of issue
 * "Zulip 11 and 12"; an entry that gets a route fails the test until it is removed.
 */
const NOT_YET_SERVED = new Map<string, string>([]);

/**
 * Where api-changelog-12.md names an endpoint differently from the route Zulip serves: a typo,
 * a route renamed at a later level, or an endpoint of the push bouncer's server-to-server API,
 * which is not part of the client API (null).
 */
const CHANGELOG_SPELLINGS = new Map<string, string | null>([
  ['POST /message/{message_id}/report', 'POST /messages/{message_id}/report'],
  ['POST /message_edit_typing', 'POST /messages/{message_id}/typing'],
  ['PATCH /user_groups/{user_group_id}/subgroups', 'POST /user_groups/{user_group_id}/subgroups'],
  ['POST /events', 'GET /events'],
  ['POST /remotes/server/register/transfer', null],
]);

/** Zulip 10.2's level: what the changelog says up to here, the 10.2 URL table already covers. */
const ZULIP_10_2_LEVEL = 372;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** 'GET /users/{}/presence': an operation with its parameter names left out, so spellings compare. */
function shape(operation: string): string {
  return operation.replace(/\{[^}]*\}/g, '{}');
}

/** What the route table serves, in shape form: `:name` and Express's catch-all `*name` become `{}`. */
function served(): Set<string> {
  return new Set(ROUTES.map((route) => shape(`${route.method} ${route.path.replace(/[:*]\w+/g, '{}')}`)));
}

function isAllowedMissing(operation: string): boolean {
  return NEVER_SERVED.has(operation) || NOT_YET_SERVED.has(operation);
}

function zulip12Operations(): string[] {
  const doc = YAML.parse(fs.readFileSync(YAML_12, 'utf8'), { maxAliasCount: -1 }) as {
    paths: Record<string, Partial<Record<(typeof METHODS)[number], unknown>>>;
  };
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${template}`),
  );
}

/**
 * url-routes-10.2.txt's lines ('GET /users/<int:user_id>') in template form ('GET
 * /users/{user_id}'). The browser-only /json/... routes keep their prefix: Stoa mounts its
 * whole table under /json as well, so a /json route is served when the table has its rest.
 */
function urlRoutes(): string[] {
  return fs
    .readFileSync(URL_ROUTES, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.replace(/<(?:\w+:)?(\w+)>/g, '{$1}'));
}

function isServed(table: Set<string>, operation: string): boolean {
  return table.has(shape(operation)) || table.has(shape(operation.replace(' /json/', ' /')));
}

/** Problems with a list of operations against the table and the allowance lists. */
function coverage(operations: string[]): { missing: string[]; listedButServed: string[] } {
  const table = served();
  return {
    missing: operations.filter((operation) => !isServed(table, operation) && !isAllowedMissing(operation)),
    listedButServed: operations.filter((operation) => isServed(table, operation) && isAllowedMissing(operation)),
  };
}

test('every operation of zulip-12.yaml has a route, or is listed with the reason it has none', (t) => {
  if (!fs.existsSync(YAML_12)) return t.skip('../shared/zulip/zulip-12.yaml not found: API coverage not checked');
  const operations = zulip12Operations();
  const { missing, listedButServed } = coverage(operations);
  assert.deepEqual(missing, [], 'operations of zulip-12.yaml without a route (add one, or list it with a reason)');
  assert.deepEqual(listedButServed, [], 'listed as missing but routed: remove them from the lists');
  t.diagnostic(`${operations.length - operations.filter(isAllowedMissing).length} of ${operations.length} operations served`);
});

test('every REST route of Zulip 10.2\'s URL table has a route, or is listed with the reason it has none', (t) => {
  if (!fs.existsSync(URL_ROUTES)) return t.skip('../shared/zulip/url-routes-10.2.txt not found: URL coverage not checked');
  const { missing, listedButServed } = coverage(urlRoutes());
  assert.deepEqual(missing, [], 'REST routes of Zulip 10.2 without a route (add one, or list it with a reason)');
  assert.deepEqual(listedButServed, [], 'listed as missing but routed: remove them from the lists');
});

test('every entry of the allowance lists names an operation of zulip-12.yaml or of the URL table', (t) => {
  if (!fs.existsSync(YAML_12) || !fs.existsSync(URL_ROUTES)) return t.skip('../shared/zulip files not found');
  const known = new Set([...zulip12Operations(), ...urlRoutes()]);
  const unknown = [...NEVER_SERVED.keys(), ...NOT_YET_SERVED.keys()].filter((operation) => !known.has(operation));
  assert.deepEqual(unknown, [], 'listed but neither Zulip 12 nor Zulip 10.2 has it: fix the spelling or remove it');
});

/** One reference to an endpoint as the changelog writes it: a code span, perhaps a link. */
const REFERENCE = /^\[?`(GET|POST|PUT|PATCH|DELETE) \/?([^`\s]+)`\]?(?:\([^)]*\))?(?:,?\s*(?:and\s+)?)/i;

/**
 * The endpoints each feature level's entries are about, by level: the references a bullet opens
 * with ('* [`POST /register`](...), [`GET /events`](...): ...'). A level that changes or adds an
 * endpoint says the endpoint exists at that level. Levels are headed `**Feature level N**`.
 */
function endpointsByLevel(markdown: string): Map<number, string[]> {
  const byLevel = new Map<number, string[]>();
  let level: number | undefined;
  // Each bullet with its continuation lines joined, under the level it belongs to.
  const bullets: Array<{ level: number; text: string }> = [];
  for (const line of markdown.split('\n')) {
    const heading = /^\*\*Feature level (\d+)\*\*/.exec(line.trim());
    if (heading) level = Number(heading[1]);
    if (line.startsWith('## ') && !line.startsWith('## Changes in')) level = undefined;
    if (level !== undefined && line.startsWith('* ')) bullets.push({ level, text: line.slice(2).trim() });
    else if (/^\s+\S/.test(line) && bullets.length > 0) bullets[bullets.length - 1].text += ` ${line.trim()}`;
  }
  for (const { level, text } of bullets) {
    let rest = text;
    for (let match = REFERENCE.exec(rest); match; match = REFERENCE.exec(rest)) {
      const written = `${match[1].toUpperCase()} /${match[2].replace(/^\/?api\/v1\//, '').replace(/<(?:\w+:)?(\w+)>/g, '{$1}')}`;
      const operation = CHANGELOG_SPELLINGS.has(written) ? CHANGELOG_SPELLINGS.get(written) : written;
      if (operation) byLevel.set(level, [...new Set([...(byLevel.get(level) ?? []), operation])]);
      rest = rest.slice(match[0].length);
    }
  }
  return byLevel;
}

test('every endpoint the changelog adds or changes at a level Stoa claims is routed', (t) => {
  if (!fs.existsSync(CHANGELOG_12)) return t.skip('../shared/zulip/api-changelog-12.md not found: levels not checked');
  const byLevel = endpointsByLevel(fs.readFileSync(CHANGELOG_12, 'utf8'));
  // Spot checks of the reader itself, one per way the changelog writes a reference.
  assert.deepEqual(byLevel.get(381), ['POST /reminders']);
  assert.deepEqual(byLevel.get(417), ['POST /channels/create']);
  assert.deepEqual(byLevel.get(440), ['GET /users/{user_id}/channels']);
  assert.deepEqual(byLevel.get(460), ['POST /register', 'GET /events', 'PATCH /realm', 'POST /calls/constructorgroups/create']);
  const table = served();
  const missing = [...byLevel]
    .filter(([level]) => level > ZULIP_10_2_LEVEL && level <= ZULIP_FEATURE_LEVEL)
    .flatMap(([level, operations]) => operations.map((operation) => ({ level, operation })))
    .filter(({ operation }) => !isServed(table, operation) && !NEVER_SERVED.has(operation))
    .map(({ level, operation }) => `${operation} (level ${level})`);
  // A level is claimed only when every endpoint it names is served: nothing is excused here.
  assert.deepEqual(missing, [], `endpoints added at levels up to ${ZULIP_FEATURE_LEVEL} without a route`);
});

test('the upload download route counts as zulip-12.yaml\'s GET /user_uploads/{realm_id_str}/{filename}', () => {
  const route = ROUTES.find((r) => r.method === 'GET' && r.path.startsWith('/user_uploads/'));
  assert.ok(route, 'a GET /user_uploads/... route exists');
  assert.ok(served().has('GET /user_uploads/{}/{}'));
});
