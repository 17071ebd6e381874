/**
 * Checks our HTTP responses and event objects against Zulip's OpenAPI descriptions, so tests
 * catch shapes that real Zulip clients would not expect: Zulip 10.2's
 * (../shared/zulip/zulip.yaml, level 372) and Zulip 12's (../shared/zulip/zulip-12.yaml,
 * level 488).
 *
 * The default checks (assertValidResponse, assertValidEvent) accept what either description
 * accepts, while Stoa moves from the one to the other; the `...12` functions accept only what
 * Zulip 12 describes, for tests that pin a change made after 10.2.
 *
 * The YAML files exist in development and CI but not in a user's clone; without one the
 * checks that need it pass and `skipReason` / `skipReason12` say why. Everything is loaded
 * and compiled lazily, once, on first use.
 */
import assert from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import YAML from 'yaml';

type Version = '10.2' | '12';
const YAML_PATHS: Record<Version, string> = {
  '10.2': path.resolve(__dirname, '../../../shared/zulip/zulip.yaml'),
  '12': path.resolve(__dirname, '../../../shared/zulip/zulip-12.yaml'),
};

export const openapiAvailable: boolean = fs.existsSync(YAML_PATHS['10.2']);
export const skipReason: string | undefined = openapiAvailable
  ? undefined
  : '../shared/zulip/zulip.yaml not found: response schema checks skipped';
export const openapi12Available: boolean = fs.existsSync(YAML_PATHS['12']);
export const skipReason12: string | undefined = openapi12Available
  ? undefined
  : '../shared/zulip/zulip-12.yaml not found: Zulip 12 schema checks skipped';

// ---------------------------------------------------------------------------
// What Stoa sends that Zulip 10.2's description lacks.
//
// Stoa implements parts of the specification (../shared/seeds/000_*.txt) that
// arrived after Zulip 10.2 (feature level 372), and the specification names a
// few things differently from Zulip. Without this list the validator would
// reject those fields wherever the YAML forbids unknown properties. Each entry
// was checked with grep against zulip.yaml before being added; an entry for a
// property Zulip already has widens it (either shape is accepted) instead of
// replacing it.
//
// `in` targets: 'schema:<name>' is components/schemas/<name>; the property is
// also allowed in every allOf branch with `additionalProperties: false` that
// sits beside a reference to that schema (Zulip re-lists inherited properties
// there as `{}`). 'event:<type>/<op>' is that variant of GET /events' items.
// 'path:<METHOD> <template>' is the closed branch of that operation's 200 body.
//
// `since` is the feature level that introduced it, or 'spec' when it is a
// name the specification uses instead of Zulip's (worth re-checking whenever
// the specification or Zulip's naming is clarified).
// ---------------------------------------------------------------------------

interface NewerProperty {
  in: string[];
  property: string;
  /** OpenAPI 3.0 schema of the value. */
  schema: object;
  since: number | 'spec' | 'undocumented';
}

interface NewerOperation {
  /** e.g. 'POST /mobile_push/e2ee/test_notification', relative to /api/v1 */
  operation: string;
  /** Name under components/responses describing the 200 body, or the body's own schema. */
  success: string | object;
  since: number | 'undocumented';
}

interface NewerEvent {
  /** A whole event variant (type, and op if any) that zulip.yaml lacks. */
  event: object;
  since: number;
}

const CHANNEL = ['schema:BasicChannelBase', 'schema:Subscription'];
const GROUP_SETTING = { $ref: '#/components/schemas/GroupSettingValue' };
const DEV_USER = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'realm_url'],
  properties: { email: { type: 'string' }, realm_uri: { type: 'string' }, realm_url: { type: 'string' } },
};

/** What Stoa's browser sign-in answers carry (see the /accounts entries below). */
const SESSION_ANSWER = {
  user_id: { type: 'integer' },
  email: { type: 'string' },
  csrf_token: { type: 'string' },
};

/** A success body with exactly these fields beside result, msg and ignored_parameters_unsupported. */
function closedSuccess(required: string[], properties: Record<string, object>): object {
  return {
    allOf: [
      { $ref: '#/components/schemas/JsonSuccessBase' },
      {
        additionalProperties: false,
        required,
        properties: { result: {}, msg: {}, ignored_parameters_unsupported: {}, ...properties },
      },
    ],
  };
}
const BOT_DEFAULTS = {
  default_sending_stream: { type: 'string', nullable: true },
  default_events_register_stream: { type: 'string', nullable: true },
  default_all_public_streams: { type: 'boolean' },
};
const BOT_DEFAULT_NAMES = Object.keys(BOT_DEFAULTS);

const NEWER_THAN_10_2: Array<NewerProperty | NewerOperation | NewerEvent> = [
  {
    in: CHANNEL,
    property: 'topics_policy',
    // 'empty_topic_only' arrived at 404.
    schema: { type: 'string', enum: ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] },
    since: 392,
  },
  { in: CHANNEL, property: 'folder_id', schema: { type: 'integer', nullable: true }, since: 389 },
  { in: CHANNEL, property: 'can_move_messages_out_of_channel_group', schema: GROUP_SETTING, since: 396 },
  { in: CHANNEL, property: 'can_move_messages_within_channel_group', schema: GROUP_SETTING, since: 396 },
  { in: CHANNEL, property: 'can_delete_any_message_group', schema: GROUP_SETTING, since: 407 },
  { in: CHANNEL, property: 'can_delete_own_message_group', schema: GROUP_SETTING, since: 407 },
  {
    in: ['schema:Subscription'],
    property: 'partial_subscribers',
    schema: { type: 'array', items: { type: 'integer' } },
    since: 412,
  },
  // Removing a channel from its folder (folder_id null) yields a null value;
  // 10.2's stream update event has no null among its value shapes.
  { in: ['event:stream/update'], property: 'value', schema: { type: 'null' }, since: 389 },
  // Its success body is the plain one; its errors are generic coded errors.
  { operation: 'POST /mobile_push/e2ee/test_notification', success: 'SimpleSuccess', since: 420 },
  { operation: 'POST /mobile_push/register', success: 'SimpleSuccess', since: 406 },
  // Zulip's widgets endpoint, which its OpenAPI description leaves out (it has the event).
  { operation: 'POST /submessage', success: 'SimpleSuccess', since: 'undocumented' },
  // Uploading an avatar, which Zulip's OpenAPI description leaves out: it answers the new URL.
  {
    operation: 'POST /users/me/avatar',
    success: {
      type: 'object',
      additionalProperties: false,
      required: ['result', 'msg', 'avatar_url'],
      properties: { result: { enum: ['success'] }, msg: { type: 'string' }, avatar_url: { type: 'string' } },
    },
    since: 'undocumented',
  },
  // The specification's removal of a push token of either kind.
  { operation: 'DELETE /users/me/platform_device_token', success: 'SimpleSuccess', since: 'undocumented' },
  // The organization-level empty-topic rule that channels with topics_policy "inherit" follow.
  {
    in: ['path:POST /register'],
    property: 'realm_topics_policy',
    schema: { type: 'string', enum: ['allow_empty_topic', 'disable_empty_topic'] },
    since: 392,
  },
  // The organization's topics_policy comes with the older mandatory_topics in one event.
  {
    in: ['event:realm/update_dict.data'],
    property: 'topics_policy',
    schema: { type: 'string', enum: ['allow_empty_topic', 'disable_empty_topic'] },
    since: 392,
  },
  // Zulip serves PATCH /realm, but zulip.yaml does not describe it; it answers what changed.
  {
    operation: 'PATCH /realm',
    success: { allOf: [{ $ref: '#/components/schemas/JsonSuccessBase' }, { type: 'object' }] },
    since: 'undocumented',
  },
  // Zulip's development server has this endpoint but zulip.yaml does not describe it.
  {
    operation: 'GET /dev_list_users',
    success: {
      allOf: [
        { $ref: '#/components/schemas/JsonSuccessBase' },
        {
          additionalProperties: false,
          required: ['direct_admins', 'direct_users'],
          properties: {
            result: {},
            msg: {},
            ignored_parameters_unsupported: {},
            direct_admins: { type: 'array', items: DEV_USER },
            direct_users: { type: 'array', items: DEV_USER },
          },
        },
      ],
    },
    since: 'undocumented',
  },
  // Zulip serves this (resetting to the provider-hosted avatar) but zulip.yaml does not describe it.
  {
    operation: 'DELETE /users/me/avatar',
    success: {
      allOf: [
        { $ref: '#/components/schemas/JsonSuccessBase' },
        {
          additionalProperties: false,
          required: ['avatar_url'],
          properties: { result: {}, msg: {}, ignored_parameters_unsupported: {}, avatar_url: { type: 'string' } },
        },
      ],
    },
    since: 'undocumented',
  },
  // Clients with the simplified_presence_events capability get the modern format, keyed by user ID.
  {
    in: ['event:presence'],
    property: 'presences',
    schema: { type: 'object', additionalProperties: { $ref: '#/components/schemas/ModernPresenceFormat' } },
    since: 419,
  },
  // Zulip answers slim_presence=true here with the modern format, which zulip.yaml does not describe.
  {
    in: ['path:GET /users/{user_id_or_email}/presence'],
    property: 'presence',
    schema: { $ref: '#/components/schemas/ModernPresenceFormat' },
    since: 'undocumented',
  },
  // The caller's own status; Zulip offers only GET /users/{user_id}/status for it.
  {
    operation: 'GET /users/me/status',
    success: {
      allOf: [
        { $ref: '#/components/schemas/JsonSuccessBase' },
        {
          additionalProperties: false,
          required: ['status'],
          properties: {
            result: {},
            msg: {},
            ignored_parameters_unsupported: {},
            status: { $ref: '#/components/schemas/UserStatus' },
          },
        },
      ],
    },
    since: 'undocumented',
  },
  // Zulip calls this `zulip_extra_emoji`; the status emoji use the specification's name too.
  {
    in: ['schema:UserStatus', 'event:user_status'],
    property: 'reaction_type',
    schema: { type: 'string', enum: ['service_extra_emoji'] },
    since: 'spec',
  },
  // Zulip calls this `zephyr_mirror_active`.
  {
    in: ['path:POST /users/me/presence'],
    property: 'legacy_mirror_active',
    schema: { type: 'boolean' },
    since: 'spec',
  },
  // Zulip sends the client's own local_id back in the sender's message event (zulip.yaml
  // describes it under POST /messages' queue_id, not in the event).
  { in: ['event:message'], property: 'local_message_id', schema: { type: 'string' }, since: 'undocumented' },
  // Zulip serves these custom profile field operations, which zulip.yaml does not describe.
  { operation: 'PATCH /realm/profile_fields/{field_id}', success: 'SimpleSuccess', since: 'undocumented' },
  { operation: 'DELETE /realm/profile_fields/{field_id}', success: 'SimpleSuccess', since: 'undocumented' },
  { operation: 'PATCH /users/me/profile_data', success: 'SimpleSuccess', since: 'undocumented' },
  { operation: 'DELETE /users/me/profile_data', success: 'SimpleSuccess', since: 'undocumented' },
  // Zulip serves the bot operations, which zulip.yaml does not describe.
  { operation: 'POST /bots', success: closedSuccess(['user_id', 'api_key', 'avatar_url', ...BOT_DEFAULT_NAMES], { user_id: { type: 'integer' }, api_key: { type: 'string' }, avatar_url: { type: 'string' }, ...BOT_DEFAULTS }), since: 'undocumented' },
  {
    operation: 'GET /bots',
    success: closedSuccess(['bots'], {
      bots: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['username', 'full_name', 'api_key', 'avatar_url', ...BOT_DEFAULT_NAMES],
          properties: { username: { type: 'string' }, full_name: { type: 'string' }, api_key: { type: 'string' }, avatar_url: { type: 'string' }, ...BOT_DEFAULTS },
        },
      },
    }),
    since: 'undocumented',
  },
  {
    operation: 'PATCH /bots/{bot_id}',
    success: closedSuccess(['full_name', 'avatar_url', 'service_interface', 'service_payload_url', 'config_data', ...BOT_DEFAULT_NAMES], {
      full_name: { type: 'string' },
      avatar_url: { type: 'string' },
      service_interface: { type: 'integer' },
      service_payload_url: { type: 'string', nullable: true },
      config_data: { type: 'object', nullable: true, additionalProperties: { type: 'string' } },
      bot_owner: { type: 'string' },
      ...BOT_DEFAULTS,
    }),
    since: 'undocumented',
  },
  { operation: 'DELETE /bots/{bot_id}', success: 'SimpleSuccess', since: 'undocumented' },
  { operation: 'POST /bots/{bot_id}/api_key/regenerate', success: closedSuccess(['api_key'], { api_key: { type: 'string' } }), since: 'undocumented' },
  // Zulip calls this `pygments_language`, which playgrounds carry as well.
  { in: ['schema:RealmPlayground'], property: 'highlighter_language', schema: { type: 'string' }, since: 'spec' },
  // Zulip calls this `zulip_extra_emoji`; EmojiBase covers message reactions and reaction events.
  {
    in: ['schema:EmojiBase'],
    property: 'reaction_type',
    schema: { type: 'string', enum: ['service_extra_emoji'] },
    since: 'spec',
  },
  // Whether the server can mail invitations (--smtp); Zulip's web app knows from its settings.
  { in: ['path:GET /server_settings'], property: 'email_invitations_enabled', schema: { type: 'boolean' }, since: 'undocumented' },
  // Whether the server sends mail at all (--smtp): the login page offers "Forgot your password?" only then.
  { in: ['path:GET /server_settings'], property: 'outgoing_email_enabled', schema: { type: 'boolean' }, since: 'undocumented' },
  // Stoa's browser sign-in (/accounts/...): Zulip's web login is a server-rendered form, so
  // zulip.yaml has nothing to say about it; these are the answers the web app relies on.
  ...['POST /accounts/login', 'POST /accounts/dev_login', 'POST /accounts/register'].map((operation) => ({
    operation,
    success: closedSuccess(['user_id', 'email', 'csrf_token'], SESSION_ANSWER),
    since: 'undocumented' as const,
  })),
  // The session says too whether the account has a password (one without sets its first one).
  {
    operation: 'GET /accounts/session',
    success: closedSuccess(['user_id', 'email', 'csrf_token', 'has_password'], { ...SESSION_ANSWER, has_password: { type: 'boolean' } }),
    since: 'undocumented',
  },
  { operation: 'POST /accounts/logout', success: 'SimpleSuccess', since: 'undocumented' },
  {
    operation: 'GET /accounts/invite/{key}',
    success: closedSuccess(['realm_name', 'invite_as', 'is_multiuse', 'email', 'expiry_date'], {
      realm_name: { type: 'string' },
      invite_as: { type: 'integer', enum: [100, 200, 300, 400, 600] },
      is_multiuse: { type: 'boolean' },
      email: { type: 'string', nullable: true },
      expiry_date: { type: 'integer', nullable: true },
    }),
    since: 'undocumented',
  },
  {
    operation: 'GET /accounts/dev_people',
    success: closedSuccess(['people'], {
      people: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['user_id', 'full_name', 'email', 'role'],
          properties: {
            user_id: { type: 'integer' },
            full_name: { type: 'string' },
            email: { type: 'string' },
            role: { type: 'integer', enum: [100, 200, 300, 400, 600] },
          },
        },
      },
    }),
    since: 'undocumented',
  },
  // Routes of Zulip 10.2's URL table that zulip.yaml does not describe.
  ...['PATCH /settings/display', 'PATCH /settings/notifications'].map((operation) => ({
    operation,
    success: { allOf: [{ $ref: '#/components/schemas/JsonSuccessBase' }, { type: 'object' }] },
    since: 'undocumented' as const,
  })),
  { operation: 'POST /zcommand', success: closedSuccess([], {}), since: 'undocumented' },
  {
    operation: 'GET /bot_storage',
    success: closedSuccess(['storage'], { storage: { type: 'object', additionalProperties: { type: 'string' } } }),
    since: 'undocumented',
  },
  { operation: 'PUT /bot_storage', success: 'SimpleSuccess', since: 'undocumented' },
  ...[
    'POST /default_stream_groups/create',
    'PATCH /default_stream_groups/{group_id}',
    'PATCH /default_stream_groups/{group_id}/streams',
    'DELETE /default_stream_groups/{group_id}',
  ].map((operation) => ({ operation, success: 'SimpleSuccess', since: 'undocumented' as const })),
  { operation: 'POST /realm/icon', success: closedSuccess(['icon_url'], { icon_url: { type: 'string' } }), since: 'undocumented' },
  { operation: 'DELETE /realm/icon', success: closedSuccess(['icon_url'], { icon_url: { type: 'string' } }), since: 'undocumented' },
  { operation: 'POST /realm/logo', success: 'SimpleSuccess', since: 'undocumented' },
  { operation: 'DELETE /realm/logo', success: 'SimpleSuccess', since: 'undocumented' },
  { operation: 'POST /users/me/onboarding_steps', success: 'SimpleSuccess', since: 'undocumented' },
  { operation: 'PATCH /users/me/subscriptions/{stream_id}', success: 'SimpleSuccess', since: 'undocumented' },
  { operation: 'DELETE /export/realm/{export_id}', success: 'SimpleSuccess', since: 'undocumented' },
  // Described only from Zulip 12's zulip.yaml on, though 10.2 serves it.
  {
    operation: 'POST /users/me/api_key/regenerate',
    success: closedSuccess(['api_key'], { api_key: { type: 'string' } }),
    since: 'undocumented',
  },
  // How long the queue lives without a poll, as idle_queue_timeout resolved.
  { in: ['path:POST /register'], property: 'idle_queue_timeout_secs', schema: { type: 'integer' }, since: 481 },
  { operation: 'DELETE /bot_storage', success: 'SimpleSuccess', since: 'undocumented' },
  // Deactivating the organization (Zulip's URL table; no operation in the OpenAPI files).
  { operation: 'POST /realm/deactivate', success: 'SimpleSuccess', since: 'undocumented' },
  // Register's linkifiers are the same objects as GET /realm/linkifiers and the events give, with
  // the reverse-linkification fields of levels 471 and 478; zulip-12.yaml describes them
  // everywhere but in POST /register.
  {
    in: ['path:POST /register'],
    property: 'realm_linkifiers',
    schema: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'pattern', 'url_template', 'example_input', 'reverse_template', 'alternative_url_templates'],
        properties: {
          id: { type: 'integer' },
          pattern: { type: 'string' },
          url_template: { type: 'string' },
          example_input: { type: 'string', nullable: true },
          reverse_template: { type: 'string', nullable: true },
          alternative_url_templates: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    since: 'undocumented',
  },
];

/**
 * What Stoa still sends that Zulip 12 no longer does, because the change belongs to another
 * branch of this round: the lead empties this after merging them. Applied to zulip-12.yaml only.
 */
const WAITING_FOR_OTHER_BRANCHES: Array<NewerProperty | { notRequired: string; since: number }> = [
  // Channels carry their subscriber count since level 394 (the channels branch).
  { notRequired: 'subscriber_count', since: 394 },
];

/** Takes a property out of every `required` list of the document. */
function removeRequired(node: unknown, property: string): void {
  if (Array.isArray(node)) {
    for (const item of node) removeRequired(item, property);
  } else if (isObject(node)) {
    if (Array.isArray(node.required)) node.required = node.required.filter((name) => name !== property);
    for (const value of Object.values(node)) removeRequired(value, property);
  }
}

// ---------------------------------------------------------------------------
// Small JSON helpers
// ---------------------------------------------------------------------------

type JsonObject = { [key: string]: unknown };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Follows a local reference such as '#/components/responses/SimpleSuccess'. */
function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
  let node = doc;
  for (const token of ref.slice(2).split('/').map(unescapePointer)) {
    if (!isObject(node) && !Array.isArray(node)) throw new Error(`dangling $ref ${ref}`);
    node = (node as JsonObject)[token];
  }
  if (node === undefined) throw new Error(`dangling $ref ${ref}`);
  return node;
}

/** Replaces a `{$ref}` object (response, parameter) with what it points at. */
function deref(doc: unknown, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref loop at ${current.$ref}`);
    current = resolvePointer(doc, current.$ref);
  }
  return current;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

// ---------------------------------------------------------------------------
// Applying NEWER_THAN_10_2 to the parsed document (before conversion)
// ---------------------------------------------------------------------------

/** Adds `property` to an object schema, or widens it if already there. */
function addOrWiden(target: JsonObject, property: string, schema: object): void {
  const properties = (target.properties ??= {}) as JsonObject;
  const existing = properties[property];
  properties[property] = existing === undefined ? schema : { anyOf: [existing, schema] };
}

/** Lets an `additionalProperties: false` branch admit a property defined elsewhere. */
function admitInClosedBranch(branch: JsonObject, property: string, schema: object): void {
  const properties = (branch.properties ??= {}) as JsonObject;
  const existing = properties[property];
  if (existing === undefined) properties[property] = {};
  else if (isObject(existing) && Object.keys(existing).length > 0) {
    properties[property] = { anyOf: [existing, schema] };
  }
}

/** Calls `visit` for every object in the document that has an allOf. */
function forEachAllOf(node: unknown, visit: (allOf: unknown[]) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) forEachAllOf(item, visit);
  } else if (isObject(node)) {
    if (Array.isArray(node.allOf)) visit(node.allOf);
    for (const value of Object.values(node)) forEachAllOf(value, visit);
  }
}

function refOf(node: unknown): string | undefined {
  return isObject(node) && typeof node.$ref === 'string' ? node.$ref : undefined;
}

/**
 * The refs of `name` and of every component schema that includes it through
 * allOf, directly or not: closed sibling branches next to any of them must
 * list the new property too.
 */
function includingRefs(doc: JsonObject, name: string): Set<string> {
  const schemas = (doc.components as JsonObject).schemas as JsonObject;
  const refs = new Set([`#/components/schemas/${name}`]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [other, schema] of Object.entries(schemas)) {
      const ref = `#/components/schemas/${other}`;
      const allOf = isObject(schema) && Array.isArray(schema.allOf) ? schema.allOf : [];
      if (!refs.has(ref) && allOf.some((branch) => refs.has(refOf(branch) ?? ''))) {
        refs.add(ref);
        grew = true;
      }
    }
  }
  return refs;
}

function addToComponent(doc: JsonObject, name: string, property: string, schema: object): void {
  const schemas = (doc.components as JsonObject).schemas as JsonObject;
  const target = schemas[name];
  if (!isObject(target)) throw new Error(`NEWER_THAN_10_2: no schema ${name}`);
  addOrWiden(target, property, schema);
  const refs = includingRefs(doc, name);
  forEachAllOf(doc, (allOf) => {
    if (!allOf.some((branch) => refs.has(refOf(branch) ?? ''))) return;
    for (const branch of allOf) {
      if (isObject(branch) && branch.additionalProperties === false) admitInClosedBranch(branch, property, schema);
    }
  });
}

/** 'event:realm/update_dict' is that variant; 'event:realm/update_dict.data' its `data` object. */
function addToEvent(doc: JsonObject, target: string, property: string, schema: object): void {
  const [typeAndOp, ...nested] = target.split('.');
  const [type, op] = typeAndOp.split('/');
  let branch = eventVariants(doc).find((variant) => variantKey(variant) === `${type}/${op ?? ''}`);
  for (const name of nested) branch = (branch?.properties as JsonObject | undefined)?.[name] as JsonObject | undefined;
  if (!branch) throw new Error(`NEWER_THAN_10_2: no event ${target}`);
  addOrWiden(branch, property, schema);
}

/** 'path:POST /users/me/presence': the closed branch of that operation's 200 body. */
function addToOperation(doc: JsonObject, operation: string, property: string, schema: object): void {
  const [method, template] = operation.split(' ');
  const op = (doc.paths as JsonObject)[template] as JsonObject | undefined;
  const body = op && successSchema(doc, op[method.toLowerCase()]);
  const closed = isObject(body) && Array.isArray(body.allOf) ? body.allOf.find(isClosedObject) : undefined;
  if (!isObject(closed)) throw new Error(`NEWER_THAN_10_2: no closed 200 schema for ${operation}`);
  addOrWiden(closed, property, schema);
}

function isClosedObject(node: unknown): boolean {
  return isObject(node) && node.additionalProperties === false && isObject(node.properties);
}

function addOperation(doc: JsonObject, entry: NewerOperation): void {
  const [method, template] = entry.operation.split(' ');
  const paths = doc.paths as JsonObject;
  const item = (paths[template] ??= {}) as JsonObject;
  const success =
    typeof entry.success === 'string'
      ? { $ref: `#/components/responses/${entry.success}` }
      : { description: 'Success', content: { 'application/json': { schema: entry.success } } };
  item[method.toLowerCase()] = { responses: { '200': success } };
}

function addEvent(doc: JsonObject, variant: object): void {
  const eventsGet = ((doc.paths as JsonObject)['/events'] as JsonObject).get;
  const items = propertySchema(successSchema(doc, eventsGet), 'events');
  const variants = isObject(items) && isObject(items.items) ? items.items.oneOf : undefined;
  if (!Array.isArray(variants)) throw new Error('zulip.yaml: GET /events has no events[].oneOf');
  variants.push(variant);
}

/**
 * Zulip 12's description has every numbered entry already, so it takes only the specification's
 * names and what Zulip leaves undocumented, and only operations it does not describe itself.
 */
function appliesTo(version: Version, doc: JsonObject, entry: NewerProperty | NewerOperation | NewerEvent): boolean {
  if (version === '10.2') return true;
  if ('event' in entry || typeof entry.since === 'number') return false;
  if (!('operation' in entry)) return true;
  const [method, template] = entry.operation.split(' ');
  return !isObject((doc.paths as JsonObject)[template]) || !(method.toLowerCase() in ((doc.paths as JsonObject)[template] as JsonObject));
}

function applyNewer(doc: JsonObject, version: Version): void {
  const entries = NEWER_THAN_10_2.filter((candidate) => appliesTo(version, doc, candidate));
  for (const entry of version === '12' ? [...entries, ...WAITING_FOR_OTHER_BRANCHES] : entries) {
    if ('notRequired' in entry) {
      removeRequired(doc, entry.notRequired);
      continue;
    }
    if ('event' in entry) {
      addEvent(doc, entry.event);
      continue;
    }
    if ('operation' in entry) {
      addOperation(doc, entry);
      continue;
    }
    for (const target of entry.in) {
      const [kind, name] = [target.slice(0, target.indexOf(':')), target.slice(target.indexOf(':') + 1)];
      if (kind === 'schema') addToComponent(doc, name, entry.property, entry.schema);
      else if (kind === 'event') addToEvent(doc, name, entry.property, entry.schema);
      else if (kind === 'path') addToOperation(doc, name, entry.property, entry.schema);
      else throw new Error(`NEWER_THAN_10_2: bad target ${target}`);
    }
  }
}

// ---------------------------------------------------------------------------
// OpenAPI 3.0 schema -> JSON Schema for ajv
// ---------------------------------------------------------------------------

/** Every converted schema lives under this id, so refs work across compiles. */
const DOC_ID = 'zulip-openapi.json';

/** Keywords that only document; dropping them keeps compiled code small. */
const DOC_ONLY = new Set(['description', 'example', 'examples', 'deprecated', 'title', 'externalDocs', 'xml']);

function convertSchema(node: unknown): unknown {
  if (!isObject(node)) return node; // `true`/`false` or malformed: leave to ajv
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (DOC_ONLY.has(key) || key === 'nullable') continue;
    out[key] = convertKeyword(key, value);
  }
  // Zulip's oneOfs overlap (e.g. error variants of identical shape), so
  // "exactly one" would reject valid bodies: anyOf says what is meant.
  if ('oneOf' in out) {
    if ('anyOf' in out) out.allOf = [...((out.allOf as unknown[]) ?? []), { anyOf: out.oneOf }];
    else out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  return node.nullable === true ? allowNull(out) : out;
}

function convertKeyword(key: string, value: unknown): unknown {
  switch (key) {
    case 'properties':
      // Keys here are property names (there is one called "example"), not keywords.
      return isObject(value) ? convertSchemaMap(value) : value;
    case 'items':
    case 'additionalProperties':
    case 'not':
      return convertSchema(value);
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
      return Array.isArray(value) ? value.map(convertSchema) : value;
    case '$ref':
      return typeof value === 'string' && value.startsWith('#/') ? DOC_ID + value : value;
    default:
      return value;
  }
}

function convertSchemaMap(map: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(map).map(([name, schema]) => [name, convertSchema(schema)]));
}

/** OpenAPI's `nullable: true`: the value may also be null. */
function allowNull(schema: JsonObject): JsonObject {
  if (Object.keys(schema).length === 0) return schema; // `{nullable: true}` alone: anything goes
  const composite = ['$ref', 'allOf', 'anyOf', 'not'].some((key) => key in schema);
  if (typeof schema.type === 'string' && !composite) {
    const widened: JsonObject = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) widened.enum = [...schema.enum, null];
    return widened;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

// ---------------------------------------------------------------------------
// Loading (lazy, once)
// ---------------------------------------------------------------------------

interface Route {
  template: string;
  segments: Array<{ literal: string } | { param: string; integer: boolean }>;
  operation: JsonObject;
}

interface Loaded {
  doc: JsonObject;
  ajv: Ajv;
  /** Upper-case method -> routes with that method. */
  routes: Map<string, Route[]>;
  validators: Map<string, ValidateFunction | null>;
  /** GET /events' variants, compiled on first use. */
  events?: EventVariant[];
}

interface EventVariant {
  key: string; // e.g. 'stream/update'
  validate: ValidateFunction;
}

const loaded = new Map<Version, Loaded>();

function load(version: Version = '10.2'): Loaded {
  const done = loaded.get(version);
  if (done) return done;
  const doc = YAML.parse(fs.readFileSync(YAML_PATHS[version], 'utf8'), { maxAliasCount: -1 }) as JsonObject;
  applyNewer(doc, version);
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  // One registered document holds every component schema; each compiled
  // response schema refers into it, and ajv copes with recursive refs.
  const schemas = (doc.components as JsonObject).schemas as JsonObject;
  ajv.addSchema({ $id: DOC_ID, components: { schemas: convertSchemaMap(schemas) } });
  const state = { doc, ajv, routes: buildRoutes(doc), validators: new Map() };
  loaded.set(version, state);
  return state;
}

// ---------------------------------------------------------------------------
// Finding things in the document
// ---------------------------------------------------------------------------

/** The application/json schema of an operation's "200" response, if any. */
function successSchema(doc: JsonObject, operation: unknown): unknown {
  if (!isObject(operation) || !isObject(operation.responses)) return undefined;
  const response = deref(doc, operation.responses['200']);
  const content = isObject(response) && isObject(response.content) ? response.content['application/json'] : undefined;
  return isObject(content) ? content.schema : undefined;
}

/** The variants of GET /events' `events` items: one per event type and op. */
function eventVariants(doc: JsonObject): JsonObject[] {
  const eventsGet = ((doc.paths as JsonObject)['/events'] as JsonObject).get;
  const items = propertySchema(successSchema(doc, eventsGet), 'events');
  const variants = isObject(items) && isObject(items.items) ? items.items.oneOf : undefined;
  if (!Array.isArray(variants)) throw new Error('zulip.yaml: GET /events has no events[].oneOf');
  return variants.filter(isObject);
}

/** The schema of `name` in an object schema, looking through allOf branches. */
function propertySchema(schema: unknown, name: string): unknown {
  if (!isObject(schema)) return undefined;
  if (isObject(schema.properties) && isObject(schema.properties[name])) {
    const found = schema.properties[name] as JsonObject;
    if (Object.keys(found).length > 0) return found;
  }
  const branches = Array.isArray(schema.allOf) ? schema.allOf : [];
  return branches.map((branch) => propertySchema(branch, name)).find((found) => found !== undefined);
}

/** The single allowed value of a discriminator property, e.g. type "stream". */
function fixedValue(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (Array.isArray(schema.enum) && schema.enum.length === 1) return String(schema.enum[0]);
  const branches = Array.isArray(schema.allOf) ? schema.allOf : [];
  return branches.map(fixedValue).find((value) => value !== undefined);
}

/** 'stream/update', or 'heartbeat/' for event types without an op. */
function variantKey(variant: JsonObject): string {
  const type = fixedValue(propertySchema(variant, 'type')) ?? '?';
  return `${type}/${fixedValue(propertySchema(variant, 'op')) ?? ''}`;
}

// ---------------------------------------------------------------------------
// Matching a concrete request path to a path template
// ---------------------------------------------------------------------------

function buildRoutes(doc: JsonObject): Map<string, Route[]> {
  const routes = new Map<string, Route[]>();
  for (const [template, item] of Object.entries(doc.paths as JsonObject)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const integers = integerPathParams(doc, item, operation);
      const segments = splitPath(template).map((segment) => {
        const param = /^\{(.+)\}$/.exec(segment)?.[1];
        return param === undefined ? { literal: segment } : { param, integer: integers.has(param) };
      });
      const key = method.toUpperCase();
      routes.set(key, [...(routes.get(key) ?? []), { template, segments, operation }]);
    }
  }
  return routes;
}

/** Path parameters declared (at path or operation level) as integers. */
function integerPathParams(doc: JsonObject, item: JsonObject, operation: JsonObject): Set<string> {
  const declared = [item.parameters, operation.parameters].flatMap((list) => (Array.isArray(list) ? list : []));
  const names = new Set<string>();
  for (const raw of declared) {
    const parameter = deref(doc, raw);
    if (!isObject(parameter) || parameter.in !== 'path') continue;
    const schema = deref(doc, parameter.schema);
    if (isObject(schema) && schema.type === 'integer') names.add(String(parameter.name));
  }
  return names;
}

function splitPath(requestPath: string): string[] {
  let pathOnly = requestPath.replace(/[?#].*$/s, '');
  // The browser's /json serves the same operations as /api/v1, by session cookie.
  for (const prefix of ['/api/v1', '/json']) {
    if (pathOnly === prefix || pathOnly.startsWith(`${prefix}/`)) pathOnly = pathOnly.slice(prefix.length);
  }
  return pathOnly.split('/').filter((segment) => segment !== '').map(decodeSegment);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * How well a route fits, segment by segment: a literal beats an integer
 * parameter, which beats any other parameter. Undefined when it doesn't fit.
 */
function fit(route: Route, segments: string[]): number[] | undefined {
  const last = route.segments.at(-1);
  // An upload's {filename} is the rest of its path, slashes and all (zulip.yaml's example is
  // "4e/m2A3.../zulip.txt"), as is a navigation view's {fragment} ("narrow/is/alerted").
  const restOfPath = last !== undefined && 'param' in last && (last.param === 'filename' || last.param === 'fragment');
  if (restOfPath ? segments.length < route.segments.length : route.segments.length !== segments.length) return undefined;
  const scores: number[] = [];
  for (const [index, part] of route.segments.entries()) {
    const actual = segments[index];
    if ('literal' in part) {
      if (part.literal !== actual) return undefined;
      scores.push(2);
    } else if (part.integer) {
      if (!/^\d+$/.test(actual)) return undefined;
      scores.push(1);
    } else {
      scores.push(0);
    }
  }
  return scores;
}

function isBetter(candidate: number[], best: number[]): boolean {
  const index = candidate.findIndex((score, i) => score !== best[i]);
  return index >= 0 && candidate[index] > best[index];
}

function findRoute(state: Loaded, method: string, requestPath: string): Route | undefined {
  const segments = splitPath(requestPath);
  let best: { route: Route; scores: number[] } | undefined;
  for (const route of state.routes.get(method.toUpperCase()) ?? []) {
    const scores = fit(route, segments);
    if (scores && (!best || isBetter(scores, best.scores))) best = { route, scores };
  }
  return best?.route;
}

// ---------------------------------------------------------------------------
// Compiled validators (cached)
// ---------------------------------------------------------------------------

/** Compiles once per key; `null` caches "nothing to validate". */
function cached(state: Loaded, key: string, schema: () => unknown): ValidateFunction | null {
  if (!state.validators.has(key)) {
    const source = schema();
    state.validators.set(key, source === undefined ? null : state.ajv.compile(convertSchema(source) as object));
  }
  return state.validators.get(key) ?? null;
}

function successValidator(state: Loaded, method: string, route: Route): ValidateFunction | null {
  return cached(state, `${method.toUpperCase()} ${route.template} 200`, () => successSchema(state.doc, route.operation));
}

/**
 * Error bodies. A body is acceptable if it matches the operation's declared
 * schema for the status, a /rest-error-handling schema, or Zulip's generic
 * coded error; and result, msg and code are always required. The generic shape
 * below admits extra properties (var_name, queue_id, ...), and every declared
 * error schema in the YAML builds on it, so that union is exactly this schema:
 * compiling the declared ones as well would not change any verdict.
 */
const CODED_ERROR = {
  type: 'object',
  required: ['result', 'msg', 'code'],
  properties: { result: { enum: ['error'] }, msg: { type: 'string' }, code: { type: 'string' } },
};

/** Every event carries an integer id and a string type, whatever its variant says. */
const EVENT_ENVELOPE = {
  type: 'object',
  required: ['id', 'type'],
  properties: { id: { type: 'integer' }, type: { type: 'string' } },
};

/** Each event variant compiled on its own, so problems name the variant that was meant. */
function eventValidators(state: Loaded): EventVariant[] {
  state.events ??= eventVariants(state.doc).map((variant) => ({
    key: variantKey(variant),
    validate: state.ajv.compile(convertSchema(variant) as object),
  }));
  return state.events;
}

// ---------------------------------------------------------------------------
// Turning ajv errors into readable problems
// ---------------------------------------------------------------------------

const MAX_PROBLEMS = 25;

function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const token of pointer.split('/').slice(1).map(unescapePointer)) {
    node = isObject(node) || Array.isArray(node) ? (node as JsonObject)[token] : undefined;
  }
  return node;
}

function preview(value: unknown, limit = 60): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit)}...` : text;
}

function describeError(error: ErrorObject, data: unknown): string {
  const where = error.instancePath || '(body)';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where}: unexpected property "${String(params.additionalProperty)}"`;
    case 'required':
      return `${where}: missing required property "${String(params.missingProperty)}"`;
    case 'type':
      return `${where}: expected ${String(params.type)}, got ${preview(valueAt(data, error.instancePath))}`;
    case 'enum':
      return `${where}: ${preview(valueAt(data, error.instancePath))} is not one of ${preview(params.allowedValues, 200)}`;
    default:
      return `${where}: ${error.message ?? error.keyword}`;
  }
}

function describeErrors(errors: ErrorObject[] | null | undefined, data: unknown): string[] {
  return [...new Set((errors ?? []).map((error) => describeError(error, data)))];
}

function capped(problems: string[]): string[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_PROBLEMS), `... and ${problems.length - MAX_PROBLEMS} more`];
}

function run(validate: ValidateFunction | null, data: unknown): string[] {
  if (!validate || validate(data)) return [];
  return describeErrors(validate.errors, data);
}

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

const skipNoted = new Set<Version>();

/** Without the YAML every check passes; say so once per process. */
function skipped(version: Version = '10.2'): string[] {
  if (!skipNoted.has(version)) {
    skipNoted.add(version);
    console.warn(version === '10.2' ? skipReason : skipReason12);
  }
  return [];
}

function available(version: Version): boolean {
  return version === '10.2' ? openapiAvailable : openapi12Available;
}

function crashed(error: unknown): string[] {
  return [`schema validator failed: ${error instanceof Error ? error.message : String(error)}`];
}

/** `operation` names the request in problems, e.g. 'GET /users/5'. */
function checkResponse(state: Loaded, operation: string, route: Route | undefined, status: number, body: unknown): string[] {
  if (status >= 400) return run(cached(state, 'coded error', () => CODED_ERROR), body);
  if (status < 200 || status >= 300) return []; // redirects and the like carry no documented JSON
  if (!route) return [`no operation in zulip.yaml for ${operation}`];
  return run(successValidator(state, operation.split(' ')[0], route), body);
}

/**
 * The zulip.yaml path template that a request would be checked against, e.g.
 * matchOperation('GET', '/api/v1/users/5') === '/users/{user_id}'.
 */
export function matchOperation(method: string, requestPath: string): string | undefined {
  if (!openapiAvailable) return undefined;
  return findRoute(load(), method, requestPath)?.template;
}

function responseProblemsIn(version: Version, method: string, path: string, status: number, body: unknown): string[] {
  if (!available(version)) return skipped(version);
  try {
    const state = load(version);
    const route = findRoute(state, method, path);
    const operation = `${method.toUpperCase()} /${splitPath(path).join('/')}`;
    return capped(checkResponse(state, operation, route, status, body));
  } catch (error) {
    return crashed(error);
  }
}

/** Validate a response against zulip.yaml (10.2). method e.g. 'GET'; path is the CONCRETE request path, with or without the '/api/v1' prefix and query string (e.g. '/api/v1/users/5?x=1'). Returns a list of human-readable problems (empty = valid). Throws nothing. */
export function responseProblems(method: string, path: string, status: number, body: unknown): string[] {
  return responseProblemsIn('10.2', method, path, status, body);
}

/** Like responseProblems, against zulip-12.yaml (level 488). */
export function responseProblems12(method: string, path: string, status: number, body: unknown): string[] {
  return responseProblemsIn('12', method, path, status, body);
}

/** Like responseProblems, but for a path template as written in zulip.yaml (e.g. '/users/{user_id}'). */
export function operationProblems(method: string, template: string, status: number, body: unknown): string[] {
  if (!openapiAvailable) return skipped();
  try {
    const state = load();
    const route = state.routes.get(method.toUpperCase())?.find((candidate) => candidate.template === template);
    return capped(checkResponse(state, `${method.toUpperCase()} ${template}`, route, status, body));
  } catch (error) {
    return crashed(error);
  }
}

function eventProblemsIn(version: Version, event: unknown): string[] {
  if (!available(version)) return skipped(version);
  try {
    const state = load(version);
    const envelope = run(cached(state, 'event envelope', () => EVENT_ENVELOPE), event);
    if (!isObject(event) || typeof event.type !== 'string') return envelope;
    return capped([...envelope, ...variantProblems(state, event)]);
  } catch (error) {
    return crashed(error);
  }
}

/** Validate one event object (as delivered by GET /events) against the schema of the items of `events` in GET /events' 200 response (a oneOf over event types). Return problems; empty when valid. */
export function eventProblems(event: unknown): string[] {
  return eventProblemsIn('10.2', event);
}

/** Like eventProblems, against zulip-12.yaml (level 488). */
export function eventProblems12(event: unknown): string[] {
  return eventProblemsIn('12', event);
}

/**
 * Problems against the variants meant by the event's type and op. A variant
 * whose errors touch /type or /op was meant for another kind of event.
 */
function variantProblems(state: Loaded, event: JsonObject): string[] {
  const problems: string[] = [];
  for (const { key, validate } of eventValidators(state)) {
    if (validate(event)) return [];
    const errors = validate.errors ?? [];
    if (errors.some((error) => /^\/(type|op)(\/|$)/.test(error.instancePath))) continue;
    problems.push(...describeErrors(errors, event).map((problem) => `[${key}] ${problem}`));
  }
  if (problems.length > 0) return problems;
  const op = typeof event.op === 'string' ? ` op "${event.op}"` : '';
  return [`no event in zulip.yaml for type "${event.type}"${op}`];
}

function failure(subject: string, problems: string[], value: unknown, file = 'zulip.yaml'): assert.AssertionError {
  const lines = problems.map((problem) => `  - ${problem}`).join('\n');
  return new assert.AssertionError({
    message: `${subject} does not match ${file}:\n${lines}\n  value: ${preview(value, 800)}`,
  });
}

/**
 * Problems under 10.2, unless Zulip 12's description accepts the value: a shape Zulip changed
 * after 10.2 (and Stoa with it) is what Zulip 12 describes.
 */
function eitherVersion(problems10: string[], problems12: () => string[]): string[] {
  if (problems10.length === 0 || !openapi12Available) return problems10;
  const under12 = problems12();
  if (under12.length === 0) return [];
  return [...problems10.map((problem) => `10.2: ${problem}`), ...under12.map((problem) => `12: ${problem}`)];
}

/** Convenience: throw an AssertionError listing problems if neither description accepts the response. */
export function assertValidResponse(method: string, path: string, status: number, body: unknown): void {
  const problems = eitherVersion(responseProblems(method, path, status, body), () => responseProblems12(method, path, status, body));
  if (problems.length > 0) throw failure(`${method.toUpperCase()} ${path} -> ${status}`, problems, body, EITHER);
}

/** Throws unless the event is valid under zulip.yaml or zulip-12.yaml. */
export function assertValidEvent(event: unknown): void {
  const problems = eitherVersion(eventProblems(event), () => eventProblems12(event));
  if (problems.length > 0) throw failure('event', problems, event, EITHER);
}

const EITHER = openapi12Available ? 'zulip.yaml or zulip-12.yaml' : 'zulip.yaml';

/** Throws unless zulip-12.yaml (level 488) accepts the response; for tests of changes made after 10.2. */
export function assertValidResponse12(method: string, path: string, status: number, body: unknown): void {
  const problems = responseProblems12(method, path, status, body);
  if (problems.length > 0) throw failure(`${method.toUpperCase()} ${path} -> ${status}`, problems, body, 'zulip-12.yaml');
}

/** Throws unless zulip-12.yaml (level 488) accepts the event. */
export function assertValidEvent12(event: unknown): void {
  const problems = eventProblems12(event);
  if (problems.length > 0) throw failure('event', problems, event, 'zulip-12.yaml');
}
