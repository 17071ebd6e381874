/**
 * The setting tables for users and the organization: internally consistent, and (when
 * ../shared is present) in step with what Zulip 10.2 documents for POST /register.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import {
  NOTIFICATION_SOUNDS,
  USER_SETTINGS,
  USER_SETTINGS_EXTRAS,
  isValidNotificationSound,
} from '../lib/users/settings';
import {
  REALM_DYNAMIC_KEYS,
  REALM_FETCH_KEYS,
  REALM_SERVER_FACTS,
  REALM_SETTINGS,
  SYSTEM_GROUP_NAMES,
  realmPermissionSettings,
} from '../lib/realm/settings';

const YAML_PATH = path.resolve(__dirname, '../../shared/zulip/zulip-12.yaml');

/** Keys our specification adds to the realm bundle that Zulip 12's description lacks. */
const SPEC_ONLY_REALM_KEYS = new Set(['realm_topics_policy']);

/** Realm keys of Zulip 12 that Stoa leaves out: a demo organization's deletion date (it has none). */
const LEFT_OUT_REALM_KEYS = new Set(['demo_organization_scheduled_deletion_date']);

type Schema = Record<string, unknown>;

function duplicates(values: readonly string[]): string[] {
  return values.filter((v, i) => values.indexOf(v) !== i);
}

function registerProperties(file = YAML_PATH): Record<string, Schema> | undefined {
  if (!fs.existsSync(file)) return undefined;
  const doc = parse(fs.readFileSync(file, 'utf8'), { maxAliasCount: -1 }) as Schema;
  const paths = doc.paths as Record<string, Record<string, Schema>>;
  const responses = paths['/register'].post.responses as Record<string, Schema>;
  const content = responses['200'].content as Record<string, Schema>;
  const schema = content['application/json'].schema as Schema;
  const parts = (schema.allOf as Schema[] | undefined) ?? [schema];
  const properties: Record<string, Schema> = {};
  for (const part of parts) Object.assign(properties, (part.properties as Record<string, Schema>) ?? {});
  return properties;
}

/** Whether a value fits the `type`/`nullable` of an OpenAPI property (when it declares one). */
function fitsDocumentedType(value: unknown, property: Schema): boolean {
  if (value === null) return property.nullable === true || property.type === undefined;
  switch (property.type) {
    case undefined:
      return true;
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
    case 'boolean':
      return typeof value === property.type;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && !Array.isArray(value);
    default:
      return false;
  }
}

test('user settings have unique names', () => {
  const names = USER_SETTINGS.map((s) => s.name);
  assert.deepEqual(duplicates(names), []);
  for (const extra of Object.keys(USER_SETTINGS_EXTRAS)) assert.ok(!names.includes(extra), extra);
});

test('every user setting default satisfies its own schema', () => {
  const ajv = new Ajv({ strict: true });
  for (const s of USER_SETTINGS) {
    const validate = ajv.compile(s.schema);
    assert.ok(validate(s.default), `${s.name}: ${JSON.stringify(s.default)} ${ajv.errorsText(validate.errors)}`);
  }
});

test('the default notification sound is one a client may choose, and so is silence', () => {
  const sound = USER_SETTINGS.find((s) => s.name === 'notification_sound');
  assert.ok(sound && typeof sound.default === 'string');
  assert.ok(isValidNotificationSound(sound.default));
  assert.ok(isValidNotificationSound('none'));
  assert.ok(!isValidNotificationSound('nonexistent'));
  assert.deepEqual([...NOTIFICATION_SOUNDS].sort(), [...NOTIFICATION_SOUNDS]);
});

test('realm keys are unique across settings, server facts and computed keys', () => {
  assert.deepEqual(duplicates(REALM_FETCH_KEYS), []);
  assert.equal(
    REALM_FETCH_KEYS.length,
    REALM_SETTINGS.length + Object.keys(REALM_SERVER_FACTS).length + REALM_DYNAMIC_KEYS.length,
  );
});

test('every realm setting schema compiles and every plain default satisfies it', () => {
  const ajv = new Ajv({ strict: true });
  for (const s of REALM_SETTINGS) {
    const validate = ajv.compile(s.schema);
    if (s.groupSetting) {
      // Group settings default to a system group by name; the caller turns it into an ID.
      assert.ok((SYSTEM_GROUP_NAMES as readonly unknown[]).includes(s.default), `${s.key}: ${s.default}`);
      assert.ok(validate(7), `${s.key} accepts a group ID`);
      assert.ok(validate({ direct_members: [1], direct_subgroups: [] }), `${s.key} accepts an anonymous group`);
      assert.ok(s.permission, `${s.key} has permission metadata`);
    } else {
      assert.ok(validate(s.default), `${s.key}: ${JSON.stringify(s.default)} ${ajv.errorsText(validate.errors)}`);
    }
  }
});

test('each group setting allows its own default group', () => {
  for (const [name, config] of Object.entries(realmPermissionSettings())) {
    const group = config.default_group_name as string;
    const allowed = config.allowed_system_groups as string[];
    if (allowed.length > 0) assert.ok(allowed.includes(group), name);
    if (group === 'role:nobody') assert.ok(config.allow_nobody_group, name);
    if (group === 'role:everyone') assert.ok(config.allow_everyone_group, name);
  }
});

test("user settings are exactly the settings in register's user_settings object", (t) => {
  const properties = registerProperties();
  if (!properties) return t.skip('zulip.yaml not found');
  const documented = Object.keys((properties.user_settings.properties as Schema) ?? {});
  const newer = Object.keys((registerProperties(YAML_PATH)?.user_settings.properties as Schema) ?? {});
  const names = USER_SETTINGS.map((s) => s.name);
  assert.deepEqual(names.filter((n) => !documented.includes(n) && !newer.includes(n)), [], 'settings Zulip does not document');
  const extras = Object.keys(USER_SETTINGS_EXTRAS);
  assert.deepEqual(documented.filter((n) => !names.includes(n) && !extras.includes(n)), [], 'settings we lack');
});

test('every realm key is a register response property, and every documented realm key is covered', (t) => {
  const properties = registerProperties();
  if (!properties) return t.skip('zulip.yaml not found');
  const newer = registerProperties(YAML_PATH) ?? {};
  const undocumented = REALM_FETCH_KEYS.filter((k) => !(k in properties) && !(k in newer) && !SPEC_ONLY_REALM_KEYS.has(k));
  assert.deepEqual(undocumented, []);
  for (const key of REALM_FETCH_KEYS) {
    const description = String(properties[key]?.description ?? '');
    const match = /Present if `(\w+)` is present in `fetch_event_types`/.exec(description);
    if (match) assert.equal(match[1], 'realm', `${key} belongs to fetch type ${match[1]}`);
  }
  const realmDocumented = Object.keys(properties).filter((k) =>
    /Present if `realm` is present in `fetch_event_types`/.test(String(properties[k].description ?? '')),
  );
  const missing = realmDocumented.filter((k) => !REALM_FETCH_KEYS.includes(k) && !LEFT_OUT_REALM_KEYS.has(k));
  assert.deepEqual(missing, []);
});

test('server facts and setting defaults have the types register documents', (t) => {
  const properties = registerProperties();
  if (!properties) return t.skip('zulip.yaml not found');
  const newer = registerProperties(YAML_PATH) ?? {};
  for (const [key, value] of Object.entries(REALM_SERVER_FACTS)) {
    assert.ok(fitsDocumentedType(value, properties[key] ?? newer[key]), `${key}: ${JSON.stringify(value)}`);
  }
  for (const s of REALM_SETTINGS) {
    if (s.groupSetting || !(s.key in properties)) continue;
    assert.ok(fitsDocumentedType(s.default, properties[s.key]), `${s.key}: ${JSON.stringify(s.default)}`);
  }
  const userSettings = properties.user_settings.properties as Record<string, Schema>;
  const newerSettings = (newer.user_settings?.properties ?? {}) as Record<string, Schema>;
  for (const s of USER_SETTINGS) {
    assert.ok(fitsDocumentedType(s.default, userSettings[s.name] ?? newerSettings[s.name]), `${s.name}: ${JSON.stringify(s.default)}`);
  }
});
