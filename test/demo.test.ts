import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import YAML from 'yaml';
import { parseConfig } from '../lib/config';
import { startServer } from '../lib/server';
import { Client } from './support/client';
import { spawnStoa, tempDir, TestServer } from './support/server';

const YAML_PATH = path.resolve(__dirname, '../../shared/zulip/zulip.yaml');

/** The people of Zulip's test database with the IDs and roles the documentation assumes. */
const PEOPLE: Array<[number, string, string, number]> = [
  [6, 'AARON@zulip.com', 'aaron', 400],
  [7, 'ZOE@zulip.com', 'Zoe', 400],
  [8, 'cordelia@zulip.com', "Cordelia, Lear's daughter", 400],
  [9, 'desdemona@zulip.com', 'Desdemona', 100],
  [10, 'hamlet@zulip.com', 'King Hamlet', 400],
  [11, 'iago@zulip.com', 'Iago', 200],
  [12, 'othello@zulip.com', 'Othello, the Moor of Venice', 400],
  [13, 'polonius@zulip.com', 'Polonius', 600],
  [14, 'prospero@zulip.com', 'Prospero from The Tempest', 400],
  [15, 'shiva@zulip.com', 'शिव', 300],
];

async function devLogin(server: TestServer, email: string): Promise<Client> {
  const login = await server.anonymous.post('/dev_fetch_api_key', { username: email });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return server.anonymous.as({ email, apiKey: login.body.api_key });
}

function startDemo(options: { data?: string; adminPassword?: string } = {}): Promise<TestServer> {
  return TestServer.start({ dev: true, data: options.data, config: { demo: true, adminPassword: options.adminPassword } });
}

/** Every message a user can read, oldest first. */
async function allMessages(client: Client, narrow: unknown[] = []): Promise<any[]> {
  const result = await client.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 1000, narrow, apply_markdown: true });
  assert.equal(result.status, 200, JSON.stringify(result.body));
  return result.body.messages;
}

describe('--demo', () => {
  let server: TestServer;
  let iago: Client;
  before(async () => {
    server = await startDemo();
    iago = await devLogin(server, 'iago@zulip.com');
  });
  after(() => server.close());

  test('--demo and STOA_DEMO turn on the development login', () => {
    for (const [argv, env] of [[['--demo'], {}], [[], { STOA_DEMO: '1' }]] as const) {
      const config = parseConfig([...argv], { ...env });
      assert.ok(config !== 'help' && config.demo && config.dev);
    }
    const plain = parseConfig([], {});
    assert.ok(plain !== 'help' && !plain.demo && !plain.dev);
  });

  test("the people have the emails, names, roles and user IDs of Zulip's test database", async () => {
    const users = await iago.get('/users');
    assert.equal(users.status, 200);
    for (const [id, email, fullName, role] of PEOPLE) {
      const person = users.body.members.find((m: any) => m.user_id === id);
      assert.ok(person, `user ${id}`);
      assert.deepEqual([person.email, person.full_name, person.role, person.is_bot], [email, fullName, role, false]);
    }
    const bots = users.body.members.filter((m: any) => m.is_bot).map((m: any) => [m.email, m.bot_type, m.bot_owner_id]);
    assert.deepEqual(bots, [
      ['default-bot@zulip.com', 1, 9],
      ['webhook-bot@zulip.com', 2, 7],
      ['outgoing-webhook@zulip.com', 3, 6],
    ]);
    const othello = await iago.get('/users/othello@zulip.com');
    assert.equal(othello.body.user.timezone, 'US/Pacific');
  });

  test('everyone logs in through the development login, which lists them', async () => {
    const list = await server.anonymous.get('/dev_list_users');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.direct_admins.map((u: any) => u.email).sort(), ['desdemona@zulip.com', 'iago@zulip.com']);
    assert.equal(list.body.direct_users.length, 8);
    const hamlet = await devLogin(server, 'hamlet@zulip.com');
    assert.equal((await hamlet.get('/users/me')).body.user_id, 10);
    // No password was given, so nobody has one.
    const byPassword = await server.anonymous.post('/fetch_api_key', { username: 'hamlet@zulip.com', password: 'owner-password' });
    assert.equal(byPassword.status, 401);
  });

  test('the channels, their privacy and their subscribers are those of the test database', async () => {
    const channels = await iago.get('/streams', { include_all: true });
    const shape = channels.body.streams
      .map((c: any) => [c.stream_id, c.name, c.description, c.invite_only])
      .sort((a: any[], b: any[]) => a[0] - b[0]);
    assert.deepEqual(shape, [
      [1, 'Verona', 'A city in Italy', false],
      [2, 'Denmark', 'A Scandinavian country', false],
      [3, 'Scotland', 'Located in the United Kingdom', false],
      [4, 'Venice', 'A northeastern Italian city', false],
      [5, 'Rome', 'Yet another Italian city', false],
      [6, 'core team', 'A private channel', true],
    ]);
    // Without --web-public the server allows no web-public channels: Rome is simply public.
    assert.ok(channels.body.streams.every((c: any) => c.is_web_public === false));
    const members = async (id: number) => (await iago.get(`/streams/${id}/members`)).body.subscribers.sort((a: number, b: number) => a - b);
    assert.deepEqual(await members(1), [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    assert.deepEqual(await members(2), [7, 9, 10, 11, 12, 14, 15]);
    assert.deepEqual(await members(5), [7]);
    assert.deepEqual(await members(6), [9, 10, 11]);
    const defaults = await iago.get('/streams', { include_default: true, include_public: false, include_subscribed: false });
    assert.deepEqual(defaults.body.streams.map((c: any) => c.name), ['Verona']);
    // Polonius is a guest: he sees his one channel, not the others.
    const polonius = await devLogin(server, 'polonius@zulip.com');
    assert.deepEqual((await polonius.get('/streams')).body.streams.map((c: any) => c.name), ['Verona']);
  });

  test("Iago's and Hamlet's profiles fill in the custom profile fields, Pronouns being field 9", async () => {
    const fields = (await iago.get('/realm/profile_fields')).body.custom_fields;
    assert.deepEqual(
      fields.map((f: any) => [f.id, f.name]),
      [
        [1, 'Phone number'],
        [2, 'Biography'],
        [3, 'Favorite food'],
        [4, 'Favorite editor'],
        [5, 'Birthday'],
        [6, 'Favorite website'],
        [7, 'Mentor'],
        [8, 'GitHub username'],
        [9, 'Pronouns'],
      ],
    );
    const hamlet = (await iago.get('/users/10', { include_custom_profile_fields: true })).body.user;
    assert.equal(Object.keys(hamlet.profile_data).length, 9);
    assert.equal(hamlet.profile_data['7'].value, '[11]');
    assert.match(hamlet.profile_data['2'].rendered_value, /<li>Student at Wittenberg<\/li>/);
    // As the documentation's Python example does.
    const changed = await iago.patch('/users/8', { profile_data: [{ id: 9, value: 'she/her' }] });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
  });

  test('the hamletcharacters group holds Cordelia and Hamlet', async () => {
    const groups = await iago.get('/user_groups');
    const group = groups.body.user_groups.find((g: any) => g.name === 'hamletcharacters');
    assert.equal(group.description, 'Characters of Hamlet');
    assert.deepEqual(group.members.sort((a: number, b: number) => a - b), [8, 10]);
  });

  test('a few days of conversation: channel topics, direct messages, Markdown and reactions', async () => {
    const denmark = await allMessages(iago, [{ operator: 'channel', operand: 'Denmark' }]);
    assert.ok(denmark.length > 30, `${denmark.length} messages in Denmark`);
    const documented = denmark.find((m) => m.id === 43);
    assert.deepEqual([documented.display_recipient, documented.subject], ['Denmark', 'Castle']);
    assert.ok(new Set(denmark.map((m) => m.subject)).size >= 4);

    const seen = await allMessages(iago);
    const direct = seen.filter((m) => m.type === 'private');
    assert.ok(direct.length > 0, 'Iago is in some direct messages');
    assert.ok(seen.some((m) => m.reactions.length > 0));
    assert.ok(seen.some((m) => m.content.includes('<strong>')) && seen.some((m) => m.content.includes('<div class="codehilite"')));
    // Oldest first, spread over the days before the first start.
    const times = seen.map((m) => m.timestamp);
    assert.deepEqual(times, [...times].sort((a, b) => a - b));
    const now = Date.now() / 1000;
    assert.ok(times[0] < now - 4 * 86400 && times.at(-1) < now && times.at(-1) > now - 86400);

    // The newest messages are still unread.
    const unread = await iago.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'is', operand: 'unread' }] });
    assert.ok(unread.body.messages.length > 0 && unread.body.messages.length < 30);
  });

  test('every fresh start writes the same conversation', async () => {
    const other = await startDemo();
    try {
      const theirs = await allMessages(await devLogin(other, 'iago@zulip.com'));
      const ours = await allMessages(iago);
      const shape = (m: any) => [m.id, m.sender_id, m.subject, m.content, m.reactions.map((r: any) => [r.user_id, r.emoji_name])];
      assert.deepEqual(theirs.map(shape), ours.map(shape));
    } finally {
      await other.close();
    }
  });

  test("the examples of Zulip's API documentation run as written", { skip: !existsSync(YAML_PATH) && 'zulip.yaml not found' }, async () => {
    const doc = YAML.parse(readFileSync(YAML_PATH, 'utf8'));
    const examples = new DocumentedExamples(doc);
    const run = async (operationId: string, client = iago) => {
      const { method, path: urlPath, params } = examples.request(operationId);
      const response = await client.request(method, urlPath, params);
      assert.equal(response.status, 200, `${operationId}: ${method} ${urlPath} ${JSON.stringify(params)} -> ${JSON.stringify(response.body)}`);
      return response.body;
    };
    assert.equal((await run('get-stream-id')).stream_id, 2);
    assert.equal((await run('get-stream-by-id')).stream.name, 'Verona');
    assert.equal((await run('get-user')).user.email, 'othello@zulip.com');
    assert.equal((await run('get-user-by-email')).user.user_id, 11);
    assert.equal((await run('get-user-presence')).result, 'success');
    assert.ok((await run('get-subscribers')).subscribers.includes(11));
    assert.equal((await run('get-subscription-status')).is_subscribed, true);
    assert.ok((await run('get-stream-topics')).topics.some((t: any) => t.name === 'new coffee machine'));
    const scheduled = (await run('get-scheduled-messages')).scheduled_messages;
    assert.deepEqual(scheduled.map((m: any) => [m.scheduled_message_id, m.type, m.to]), [[1, 'stream', 2], [2, 'private', [11]]]);
    assert.ok(scheduled.every((m: any) => m.scheduled_delivery_timestamp > Date.now() / 1000 + 300 * 86400));
    const messages = await run('get-messages');
    assert.ok(messages.messages.some((m: any) => m.id === 43));
    assert.equal((await run('get-message')).message.id, 43);
    for (const operationId of ['get-message-history', 'get-read-receipts', 'check-messages-match-narrow', 'update-message-flags']) {
      await run(operationId);
    }
    // Iago reacts to message 43 with an octopus and takes it back.
    await run('add-reaction');
    await run('remove-reaction');
    const sent = await run('send-message');
    const dm = await iago.get(`/messages/${sent.id}`);
    assert.deepEqual(dm.body.message.display_recipient.map((r: any) => r.id).sort((a: number, b: number) => a - b), [9, 10, 11]);
    const writes = [
      'set-typing-status',
      'update-subscription-settings', // Iago's channels 1 and 3
      'update-user-topic',
      'mute-user', // Hamlet, user 10
      'unmute-user',
      'get-user-status',
      'update-user', // Othello, user 12
      'edit-draft', // Iago's draft 2
      'delete-draft', // and draft 1
      'create-drafts',
      'delete-scheduled-message', // Iago's scheduled message 1
      'get-user-groups',
      'mark-all-as-read',
      'delete-message', // message 43, last
    ];
    for (const operationId of writes) await run(operationId);
    assert.equal((await iago.get('/messages/43')).status, 400);
  });
});

describe('--demo on a data folder that is not empty', () => {
  test('a restart keeps the demo organization as it is', async () => {
    const data = tempDir();
    const first = await startDemo({ data });
    const iago = await devLogin(first, 'iago@zulip.com');
    const sent = await iago.post('/messages', { type: 'stream', to: 'Denmark', topic: 'Castle', content: 'Still here after the restart?' });
    const before = (await allMessages(iago)).length;
    await first.restart();
    const again = await devLogin(first, 'iago@zulip.com');
    const after = await allMessages(again);
    assert.equal(after.length, before);
    assert.equal(after.at(-1).id, sent.body.id);
    assert.equal((await again.get('/users')).body.members.filter((m: any) => m.email === 'hamlet@zulip.com').length, 1);
    await first.close();
    rmSync(data, { recursive: true, force: true });
  });

  test('with --web-public, Rome is web-public and the organization allows spectators', async () => {
    const server = await TestServer.start({ dev: true, webPublic: true, config: { demo: true, adminPassword: undefined } });
    try {
      const iago = await devLogin(server, 'iago@zulip.com');
      const rome = (await iago.get('/streams/5')).body.stream;
      assert.deepEqual([rome.name, rome.is_web_public], ['Rome', true]);
      const state = await iago.post('/register', { fetch_event_types: ['realm'] });
      assert.equal(state.body.realm_enable_spectator_access, true);
    } finally {
      await server.close();
    }
  });

  test('with --admin-password, the demo people log in with that password too', async () => {
    const server = await startDemo({ adminPassword: 'abcd1234' });
    try {
      // As the documentation's fetch-api-key example does.
      const login = await server.anonymous.post('/fetch_api_key', { username: 'iago@zulip.com', password: 'abcd1234' });
      assert.equal(login.status, 200);
      assert.equal(login.body.user_id, 11);
    } finally {
      await server.close();
    }
  });

  test('another organization is never turned into the demo: the server refuses to start', async () => {
    const data = tempDir();
    const plain = await TestServer.start({ data });
    await plain.close();
    await assert.rejects(
      startServer({ ...plain.config(), demo: true, dev: true }, { log: () => {} }),
      /--demo needs an empty data folder, and .* already holds the organization "Stoa"/,
    );
    // From the command line: one line on stderr and exit status 1; the organization is untouched.
    const child = spawnStoa(['--demo', '--data', data, '--port', '0']);
    assert.equal(await child.exited, 1);
    assert.match(child.output(), /^stoa: --demo needs an empty data folder/m);
    const again = await TestServer.start({ data });
    assert.deepEqual((await again.owner.get('/users')).body.members.map((m: any) => m.email), ['owner@example.com']);
    await again.close();
    rmSync(data, { recursive: true, force: true });
  });
});

describe('the demo organization through an export and back', () => {
  /** What each person sees of the organization: people and bots, channels, every message. */
  async function seenBy(server: TestServer): Promise<Map<string, unknown>> {
    const seen = new Map<string, unknown>();
    for (const [, email] of PEOPLE) {
      const client = await devLogin(server, email);
      const users = await client.get('/users', { include_custom_profile_fields: true });
      const state = await client.post('/register', { fetch_event_types: JSON.stringify(['realm_bot', 'subscription', 'realm_user']) });
      assert.equal(state.status, 200, JSON.stringify(state.body));
      // Stoa keeps a one-to-one conversation under one recipient; Zulip 10.2's format addresses
      // each message to its receiver, and the import makes the conversation anew.
      const messages = (await allMessages(client)).map((m) => (m.type === 'private' && m.display_recipient.length <= 2 ? { ...m, recipient_id: undefined } : m));
      seen.set(email, {
        users: users.body.members,
        crossRealmBots: state.body.cross_realm_bots,
        bots: (state.body.realm_bots as any[]).map(({ api_key: _key, services, ...bot }) => ({ ...bot, services: services.map(({ token: _token, ...s }: any) => s) })),
        subscriptions: state.body.subscriptions,
        messages,
      });
    }
    return seen;
  }

  test("its five system bots keep their own addresses, and everyone sees the same people, bots, channels and messages", async () => {
    const work = tempDir('stoa-demo-export-');
    const source = path.join(work, 'source');
    const demo = await startDemo({ data: source });
    const before = await seenBy(demo);
    await demo.close();

    const tarball = path.join(work, 'demo.tar.gz');
    const exported = spawnStoa(['export', '--data', source, '--output', tarball]);
    assert.equal(await exported.exited, 0, exported.output());
    const copy = path.join(work, 'copy');
    const imported = spawnStoa(['import', tarball, '--data', copy]);
    assert.equal(await imported.exited, 0, imported.output());
    assert.match(imported.output(), /Imported "Zulip Dev" into .+: 13 users, 6 channels, \d+ messages/);

    const again = await TestServer.start({ dev: true, data: copy });
    try {
      const after = await seenBy(again);
      const iago = before.get('iago@zulip.com') as any;
      assert.deepEqual(
        iago.crossRealmBots.map((b: any) => b.email).sort(),
        ['emailgateway@zulip.com', 'nagios-receive-bot@zulip.com', 'nagios-send-bot@zulip.com', 'notification-bot@stoa.local', 'welcome-bot@zulip.com'],
      );
      assert.equal(iago.bots.length, 3);
      for (const [, email] of PEOPLE) assert.deepEqual(after.get(email), before.get(email), `what ${email} sees`);
    } finally {
      await again.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});

/**
 * Requests built from the example values zulip.yaml gives each parameter, as Zulip's
 * documentation shows them in its curl examples: path parameters substituted, and the
 * parameters its x-curl-examples-parameters chooses (its first example), else every
 * parameter with an example.
 */
class DocumentedExamples {
  constructor(private readonly doc: any) {}

  private resolve(node: any): any {
    if (node?.$ref) return this.resolve(node.$ref.split('/').slice(1).reduce((o: any, k: string) => o[k], this.doc));
    if (node?.allOf) return Object.assign({}, ...node.allOf.map((part: any) => this.resolve(part)));
    return node;
  }

  private exampleOf(node: any): unknown {
    const resolved = this.resolve(node);
    return resolved?.example ?? this.resolve(resolved?.schema)?.example ?? resolved?.content?.['application/json']?.example;
  }

  request(operationId: string): { method: string; path: string; params: Record<string, unknown> } {
    for (const [template, operations] of Object.entries<any>(this.doc.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        if (operation?.operationId !== operationId) continue;
        const chosen = operation['x-curl-examples-parameters']?.oneOf?.[0];
        const wanted = (name: string) =>
          !chosen || (chosen.type === 'include' ? chosen.parameters.enum.includes(name) : !chosen.parameters.enum.includes(name));
        let urlPath = template;
        const params: Record<string, unknown> = {};
        for (const parameter of (operation.parameters ?? []).map((p: any) => this.resolve(p))) {
          const example = this.exampleOf(parameter);
          if (parameter.in === 'path') urlPath = urlPath.replace(`{${parameter.name}}`, encodeURIComponent(String(example)));
          else if (example !== undefined && wanted(parameter.name)) params[parameter.name] = example;
        }
        const body = this.resolve(operation.requestBody)?.content?.['application/x-www-form-urlencoded']?.schema;
        for (const [name, property] of Object.entries<any>(this.resolve(body)?.properties ?? {})) {
          const example = this.exampleOf(property);
          if (example !== undefined && wanted(name)) params[name] = example;
        }
        return { method: method.toUpperCase(), path: urlPath, params };
      }
    }
    throw new Error(`no operation ${operationId} in zulip.yaml`);
  }
}
