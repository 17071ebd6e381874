import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { notesToSelfAsGroups } from '../lib/db';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { ApiResponse, Client } from './support/client';
import { listen12 } from './support/events';
import { sendMessage } from './support/messages';
import { assertValidResponse12 } from './support/openapi';
import { ManualClock, TestServer, tempDir } from './support/server';

/**
 * Zulip 12's changes to messages, attachments, presence, exports and linkifiers (feature levels
 * 443 to 487), each checked as a client sees it and against Zulip 12's description.
 */

const clock = new ManualClock();
let server: TestServer;
before(async () => {
  server = await TestServer.start({ clock });
});
after(() => server.close());

type User = Awaited<ReturnType<TestServer['createUser']>>;

/** Checks a response against Zulip 12's description of the request that produced it. */
function valid12(method: string, path: string, response: ApiResponse): ApiResponse {
  assertValidResponse12(method, `/api/v1${path}`, response.status, response.body);
  return response;
}

function ok(response: ApiResponse): any {
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
}

/** A client for a user again after a restart, which moves the server to a new port. */
function again(user: User): User {
  return Object.assign(server.anonymous.as(user.credentials), { userId: user.userId, credentials: user.credentials });
}

const nowSeconds = () => Math.floor(clock.now() / 1000);

async function upload(client: Client, name: string, text: string): Promise<string> {
  const response = await client.upload('/user_uploads', [{ name, bytes: text, type: 'text/plain' }]);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.url;
}

describe('attachments (levels 443 and 472)', () => {
  test('GET /attachments and the attachment events give seconds and a flat message_ids list', async () => {
    const owner = await server.createUser();
    const events = await listen12(owner, { event_types: ['attachment'] });
    const uploadedAt = nowSeconds();
    const url = await upload(owner, 'notes.txt', 'some notes');
    const channel = await createChannel(owner);
    clock.advance(90_000);
    const first = await sendMessage(owner, { type: 'stream', to: channel.id, topic: 'notes', content: `[notes](${url})` });
    const second = await sendMessage(owner, { type: 'stream', to: channel.id, topic: 'notes', content: `again [notes](${url})` });

    const listed = ok(valid12('GET', '/attachments', await owner.get('/attachments')));
    assert.equal(listed.attachments.length, 1);
    const [attachment] = listed.attachments;
    assert.equal(attachment.create_time, uploadedAt, 'seconds, not milliseconds');
    assert.deepEqual(attachment.message_ids, [first, second]);
    assert.equal('messages' in attachment, false);

    const seen = await events();
    assert.deepEqual(
      seen.map((e) => [e.op, e.attachment.create_time, e.attachment.message_ids]),
      [
        ['add', uploadedAt, []],
        ['update', uploadedAt, [first]],
        ['update', uploadedAt, [first, second]],
      ],
    );
  });

  test('an edit that drops the last link to its sender’s upload keeps the file and reports it in detached_uploads', async () => {
    const owner = await server.createUser();
    const url = await upload(owner, 'draft.txt', 'draft text');
    const uploadedAt = nowSeconds();
    const channel = await createChannel(owner);
    const id = await sendMessage(owner, { type: 'stream', to: channel.id, topic: 'drafts', content: `see [draft](${url})` });
    const [attachment] = ok(await owner.get('/attachments')).attachments;

    clock.advance(5_000);
    const edited = ok(valid12('PATCH', `/messages/${id}`, await owner.patch(`/messages/${id}`, { content: 'never mind' })));
    assert.deepEqual(edited.detached_uploads, [
      { id: attachment.id, name: 'draft.txt', path_id: attachment.path_id, size: 10, create_time: uploadedAt, message_ids: [] },
    ]);
    assert.equal((await owner.download(url)).status, 200, 'kept, so the owner may still decide');
    assert.deepEqual(ok(await owner.get('/attachments')).attachments[0].message_ids, []);

    const unchanged = ok(await owner.patch(`/messages/${id}`, { content: 'still nothing' }));
    assert.deepEqual(unchanged.detached_uploads, [], 'nothing more to detach');
    ok(await owner.delete(`/attachments/${attachment.id}`));
    assert.equal((await owner.download(url)).status, 404);
  });

  test('create_time survives a restart in seconds', async () => {
    const owner = await server.createUser();
    const uploadedAt = nowSeconds();
    await upload(owner, 'kept.txt', 'kept');
    await server.restart();
    const [attachment] = ok(valid12('GET', '/attachments', await again(owner).get('/attachments'))).attachments;
    assert.equal(attachment.create_time, uploadedAt);
  });
});

describe('GET /users/{user_id_or_email}/presence (level 487)', () => {
  test('answers in the modern format, by ID or email', async () => {
    const user = await server.createUser();
    const activeAt = nowSeconds();
    ok(await user.post('/users/me/presence', { status: 'active' }));
    clock.advance(300_000);
    ok(await user.post('/users/me/presence', { status: 'idle' }));
    const expected = { active_timestamp: activeAt, idle_timestamp: nowSeconds() };
    const byId = ok(valid12('GET', `/users/${user.userId}/presence`, await server.owner.get(`/users/${user.userId}/presence`)));
    assert.deepEqual(byId.presence, expected);
    const byEmail = ok(await server.owner.get(`/users/${user.credentials.email}/presence`));
    assert.deepEqual(byEmail.presence, expected);
    const silent = await server.createUser();
    const refused = await server.owner.get(`/users/${silent.userId}/presence`);
    assert.deepEqual([refused.status, refused.body.msg], [400, `No presence data for ${silent.userId}`]);
  });
});

describe('linkifiers (levels 471 and 478)', () => {
  const MODERN = { client_capabilities: { linkifier_url_template: true } };
  const ISSUES = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };

  test('carry an example input, a reverse template and alternative URL templates everywhere', async () => {
    const member = await server.createUser();
    const events = await listen12(member, { event_types: ['realm_linkifiers'], ...MODERN });
    const created = ok(
      valid12(
        'POST',
        '/realm/filters',
        await server.owner.post('/realm/filters', {
          ...ISSUES,
          example_input: ' #1234 ',
          reverse_template: '#{id}',
          alternative_url_templates: ['https://github.com/zulip/zulip/pull/{id}', ''],
        }),
      ),
    );
    const expected = {
      id: created.id,
      ...ISSUES,
      example_input: '#1234',
      reverse_template: '#{id}',
      alternative_url_templates: ['https://github.com/zulip/zulip/pull/{id}'],
    };
    const listed = ok(valid12('GET', '/realm/linkifiers', await member.get('/realm/linkifiers')));
    assert.deepEqual(listed.linkifiers, [expected]);
    assert.deepEqual((await events()).at(-1), { type: 'realm_linkifiers', realm_linkifiers: [expected] });
    const state = ok(await member.post('/register', { fetch_event_types: ['realm_linkifiers'], ...MODERN }));
    assert.deepEqual(state.realm_linkifiers, [expected]);

    // Leaving the new fields out keeps them; an empty string clears one.
    ok(valid12('PATCH', `/realm/filters/${created.id}`, await server.owner.patch(`/realm/filters/${created.id}`, ISSUES)));
    assert.deepEqual(ok(await member.get('/realm/linkifiers')).linkifiers, [expected]);
    ok(await server.owner.patch(`/realm/filters/${created.id}`, { ...ISSUES, reverse_template: '' }));
    const cleared = { ...expected, reverse_template: null };
    assert.deepEqual(ok(await member.get('/realm/linkifiers')).linkifiers, [cleared]);
    assert.deepEqual((await events()).at(-1), { type: 'realm_linkifiers', realm_linkifiers: [cleared] });
    ok(await server.owner.patch(`/realm/filters/${created.id}`, { ...ISSUES, example_input: '', alternative_url_templates: [] }));
    const bare = { ...cleared, example_input: null, alternative_url_templates: [] };

    await server.restart();
    assert.deepEqual(ok(await again(member).get('/realm/linkifiers')).linkifiers, [bare]);
    ok(await server.owner.delete(`/realm/filters/${created.id}`));
  });

  test('refuse reverse-linkification fields that do not fit the pattern, in Zulip\'s words', async () => {
    // Zulip checks the example and the reverse template on the linkifier as a whole (`__all__`),
    // stopping at the first fault; alternative URL templates are checked as a field.
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ example_input: 'issue 12' }, '__all__', 'Example input does not match the linkifier pattern.'],
      [{ example_input: '#12', reverse_template: '#{number}' }, '__all__', "Group 'number' in auto-conversion field is not present in linkifier pattern."],
      [{ example_input: '#12', reverse_template: 'issue {id}' }, '__all__', 'Example text does not match auto-conversion field.'],
      [{ example_input: '#12', reverse_template: '#{id' }, '__all__', "Invalid auto-conversion field: missing '}' character."],
      [{ example_input: '#12', reverse_template: '#{}{id}' }, '__all__', 'Invalid auto-conversion field: empty field name.'],
      [{ alternative_url_templates: ['https://example.com/{id'] }, 'alternative_url_templates', 'Invalid URL template.'],
      [{ alternative_url_templates: ['https://example.com/{other}'] }, 'alternative_url_templates', "Group 'other' in alternative URL template is not present in linkifier pattern."],
    ];
    for (const [params, field, msg] of cases) {
      const response = await server.owner.post('/realm/filters', { ...ISSUES, ...params });
      assert.deepEqual([response.status, response.body.code, response.body.msg], [400, 'BAD_REQUEST', msg], JSON.stringify(params));
      assert.deepEqual(response.body.errors, { [field]: [msg] });
    }
    // A reverse template without an example is refused outright, without field errors.
    const alone = await server.owner.post('/realm/filters', { ...ISSUES, reverse_template: '#{id}' });
    assert.deepEqual([alone.status, alone.body.code, alone.body.errors], [400, 'BAD_REQUEST', undefined]);
    assert.equal(alone.body.msg, 'Example text is required when auto-conversion field is set.');
    // The example is searched, as messages are, and a lone closing brace is a literal.
    const plain = ok(await server.owner.post('/realm/filters', { ...ISSUES, example_input: 'see #7', reverse_template: 'see #{id}' }));
    const brace = ok(
      await server.owner.post('/realm/filters', {
        pattern: 'T-(?P<id>[0-9]+)',
        url_template: 'https://example.com/t/{id}',
        example_input: '}T-4',
        reverse_template: '}T-{id}',
      }),
    );
    const literal = ok(
      await server.owner.post('/realm/filters', {
        pattern: '\\{(?P<key>[A-Z]+)\\}',
        url_template: 'https://example.com/keys/{key}',
        example_input: '{ABC}',
        reverse_template: '{{{key}}}',
      }),
    );
    const notJson = await server.owner.post('/realm/filters', { ...ISSUES, alternative_url_templates: 'https://example.com/{id}' });
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.code, 'BAD_REQUEST');
    assert.deepEqual(ok(await server.owner.get('/realm/linkifiers')).linkifiers.map((l: { id: number }) => l.id), [plain.id, brace.id, literal.id]);
    for (const id of [plain.id, brace.id, literal.id]) ok(await server.owner.delete(`/realm/filters/${id}`));
  });
});

describe('GET /messages anchor=date (level 445)', () => {
  test('anchors at the first message of the narrow sent on or after the date, else at the newest', async () => {
    const channel = await createChannel(server.owner);
    const other = await createChannel(server.owner);
    const narrow = [
      { operator: 'channel', operand: channel.id },
      { operator: 'topic', operand: 'days' },
    ];
    // A day apart each, from a whole day on: the first at midnight UTC.
    clock.advance(86_400_000 - (clock.now() % 86_400_000));
    const sent: Array<{ id: number; at: number }> = [];
    for (let day = 0; day < 3; day++) {
      const at = nowSeconds();
      sent.push({ id: await sendMessage(server.owner, { type: 'stream', to: channel.id, topic: 'days', content: `day ${day}` }), at });
      clock.advance(3_600_000);
      await sendMessage(server.owner, { type: 'stream', to: other.id, topic: 'elsewhere', content: `not in the narrow ${day}` });
      clock.advance(86_400_000 - 3_600_000);
    }
    const fetch = async (params: Record<string, unknown>) =>
      valid12('GET', '/messages', await server.owner.get('/messages', { narrow, num_before: 1, num_after: 1, ...params }));
    const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

    const onTheDay = ok(await fetch({ anchor: 'date', anchor_date: isoDay(sent[1].at) }));
    assert.equal(onTheDay.anchor, sent[1].id);
    assert.equal(onTheDay.found_anchor, true);
    assert.deepEqual(onTheDay.messages.map((m: { id: number }) => m.id), [sent[0].id, sent[1].id, sent[2].id]);

    // An hour after the second: the next message of this channel, not the other channel's.
    const afterIt = new Date((sent[1].at + 3_600) * 1000).toISOString().replace('.000Z', '');
    assert.equal(ok(await fetch({ anchor: 'date', anchor_date: afterIt })).anchor, sent[2].id, 'a time without a zone is UTC');
    const withOffset = new Date((sent[1].at + 1) * 1000).toISOString().replace('Z', '+00:00');
    assert.equal(ok(await fetch({ anchor: 'date', anchor_date: withOffset })).anchor, sent[2].id);
    assert.equal(ok(await fetch({ anchor: 'date', anchor_date: '2000-01-01' })).anchor, sent[0].id);

    const later = ok(await fetch({ anchor: 'date', anchor_date: isoDay(sent[2].at + 86_400) }));
    assert.equal(later.found_newest, true, 'nothing that late: the newest messages');
    assert.deepEqual(later.messages.map((m: { id: number }) => m.id), [sent[2].id]);

    for (const [params, code, msg] of [
      [{ anchor: 'date' }, 'REQUEST_VARIABLE_MISSING', "Missing 'anchor_date' argument"],
      [{ anchor: 'date', anchor_date: 'yesterday' }, 'BAD_REQUEST', 'Invalid anchor_date'],
      [{ anchor: 'date', anchor_date: '2026-02-30' }, 'BAD_REQUEST', 'Invalid anchor_date'],
    ] as const) {
      const response = await server.owner.get('/messages', { narrow, num_before: 1, num_after: 1, ...params });
      assert.deepEqual([response.status, response.body.code, response.body.msg], [400, code, msg]);
    }
    const flags = await server.owner.post('/messages/flags/narrow', {
      anchor: 'date', num_before: 0, num_after: 1, narrow: [], op: 'add', flag: 'starred',
    });
    assert.deepEqual([flags.status, flags.body.msg], [400, 'Invalid anchor'], 'only GET /messages takes date anchors');
  });
});

describe('the mentions narrow operator (level 446)', () => {
  test('finds direct, visible mentions of a user: not silent, group or wildcard ones', async () => {
    const reader = await server.createUser('Mention Reader');
    const target = await server.createUser('Mention Target');
    const outsider = await server.createUser('Mention Outsider');
    const groupName = `mentioned-${target.userId}`;
    ok(await server.owner.post('/user_groups/create', { name: groupName, description: '', members: [target.userId] }));
    const channel = await createChannel(server.owner, { principals: JSON.stringify([server.ownerId, reader.userId, target.userId]) });
    const notJoined = await createChannel(server.owner, { principals: JSON.stringify([server.ownerId, reader.userId]) });
    const narrow = [{ operator: 'mentions', operand: target.userId }];
    const events = await listen12(reader, { event_types: ['message'], narrow });

    const post = (content: string, to = channel.id) => sendMessage(server.owner, { type: 'stream', to, topic: 'mentions', content });
    const direct = await post('hello @**Mention Target**');
    const byId = await post(`hello @**Mention Target|${target.userId}**`);
    await post('quietly @_**Mention Target**');
    await post(`the group @*${groupName}*`);
    await post('everyone @**all**');
    await post('someone else @**Mention Outsider**');
    await post('not subscribed there: @**Mention Target**', notJoined.id);
    const dm = await sendMessage(server.owner, { type: 'direct', to: [target.userId, reader.userId], content: 'hi @**Mention Target**' });

    const fetched = ok(valid12('GET', '/messages', await reader.get('/messages', { narrow, anchor: 'newest', num_before: 50, num_after: 0 })));
    assert.deepEqual(fetched.messages.map((m: { id: number }) => m.id), [direct, byId, dm]);
    assert.deepEqual((await events()).map((e) => e.message.id), [direct, byId, dm], 'register narrows by it too');

    const matches = ok(valid12('GET', '/messages/matches_narrow', await reader.get('/messages/matches_narrow', { msg_ids: [direct, dm, direct + 2], narrow })));
    assert.deepEqual(Object.keys(matches.messages).map(Number), [direct, dm]);

    const starred = ok(
      valid12('POST', '/messages/flags/narrow', await reader.post('/messages/flags/narrow', {
        anchor: 'oldest', num_before: 0, num_after: 100, narrow, op: 'add', flag: 'starred',
      })),
    );
    assert.equal(starred.updated_count, 3);
    const outsiderView = ok(await outsider.get('/messages', { narrow, anchor: 'newest', num_before: 50, num_after: 0 }));
    assert.deepEqual(outsiderView.messages, [], 'only messages the viewer may read');

    const negated = ok(await reader.get('/messages', { narrow: [{ operator: 'channel', operand: channel.id }, { ...narrow[0], negated: true }], anchor: 'newest', num_before: 50, num_after: 0 }));
    assert.ok(!negated.messages.some((m: { id: number }) => m.id === direct || m.id === byId));

    for (const operand of [999_999, 'nobody@example.com']) {
      const refused = await reader.get('/messages', { narrow: [{ operator: 'mentions', operand }], anchor: 'newest', num_before: 1, num_after: 0 });
      assert.deepEqual([refused.status, refused.body.code, refused.body.msg], [400, 'BAD_NARROW', `Invalid narrow operator: unknown user ${operand}`]);
    }
  });
});

describe('delete_message events for the deleter (level 457)', () => {
  test('an administrator outside a public channel hears of the deletion they could read; an outsider of a private one hears nothing', async () => {
    const author = await server.createUser();
    const admin = await server.createUser();
    ok(await server.owner.patch(`/users/${admin.userId}`, { role: 200 }));
    const outsider = await server.createUser();
    const bulk = { client_capabilities: { bulk_message_deletion: true } };
    const channel = await createChannel(author);
    const first = await sendMessage(author, { type: 'stream', to: channel.id, topic: 'gone', content: 'one' });
    const second = await sendMessage(author, { type: 'stream', to: channel.id, topic: 'gone', content: 'two' });
    const adminEvents = await listen12(admin, { event_types: ['delete_message'], ...bulk });
    const authorEvents = await listen12(author, { event_types: ['delete_message'], ...bulk });
    const outsiderEvents = await listen12(outsider, { event_types: ['delete_message'], ...bulk });

    ok(valid12('POST', `/streams/${channel.id}/delete_topic`, await admin.post(`/streams/${channel.id}/delete_topic`, { topic_name: 'gone' })));
    const expected = { type: 'delete_message', message_ids: [first, second], message_type: 'stream', stream_id: channel.id, topic: 'gone' };
    assert.deepEqual(await adminEvents(), [expected], 'not subscribed, but could read them');
    assert.deepEqual(await authorEvents(), [expected]);
    assert.deepEqual(await outsiderEvents(), [], 'not subscribed and did not delete');

    const secret = await createChannel(author, { invite_only: true });
    const hidden = await sendMessage(author, { type: 'stream', to: secret.id, topic: 'private', content: 'secret' });
    const refused = await admin.delete(`/messages/${hidden}`);
    assert.deepEqual([refused.status, refused.body.msg], [400, 'Invalid message(s)'], 'a message they cannot read is not theirs to delete');
    assert.deepEqual(await adminEvents(), []);
  });
});

describe('recipient_id of one-to-one direct messages (level 482)', () => {
  test('is the conversation’s own: the same both ways, for both people, distinct from every other, after a restart too', async () => {
    const ann = await server.createUser();
    const bob = await server.createUser();
    const cat = await server.createUser();
    const bobEvents = await listen12(bob, { event_types: ['message'] });
    const toBob = await sendMessage(ann, { type: 'direct', to: [bob.userId], content: 'hi Bob' });
    const toAnn = await sendMessage(bob, { type: 'direct', to: [ann.userId], content: 'hi Ann' });
    const annToCat = await sendMessage(ann, { type: 'direct', to: [cat.userId], content: 'hi Cat' });
    const group = await sendMessage(ann, { type: 'direct', to: [bob.userId, cat.userId], content: 'hi both' });
    const self = await sendMessage(ann, { type: 'direct', to: [ann.userId], content: 'note to self' });
    const channel = await createChannel(ann);
    const inChannel = await sendMessage(ann, { type: 'stream', to: channel.id, topic: 't', content: 'hi all' });

    const recipientOf = async (client: Client, id: number) =>
      ok(valid12('GET', `/messages/${id}`, await client.get(`/messages/${id}`))).message.recipient_id as number;
    const pair = await recipientOf(ann, toBob);
    for (const [client, id] of [[ann, toAnn], [bob, toBob], [bob, toAnn]] as const) assert.equal(await recipientOf(client, id), pair);
    const others = [await recipientOf(ann, annToCat), await recipientOf(ann, group), await recipientOf(ann, self), await recipientOf(ann, inChannel)];
    assert.equal(new Set([pair, ...others]).size, 5, 'every conversation has its own');
    assert.deepEqual(
      (await bobEvents()).filter((e) => e.message.id === toBob || e.message.id === toAnn).map((e) => e.message.recipient_id),
      [pair, pair],
    );
    const fetched = ok(valid12('GET', '/messages', await bob.get('/messages', {
      narrow: [{ operator: 'dm', operand: [ann.userId] }], anchor: 'newest', num_before: 10, num_after: 0,
    })));
    assert.deepEqual(fetched.messages.map((m: { recipient_id: number }) => m.recipient_id), [pair, pair]);

    await server.restart();
    assert.equal(await recipientOf(again(bob), toBob), pair);
  });
});

describe('recipient_id of a note to oneself (level 482)', () => {
  test('is a conversation of its own, found by dm and dm-including, listed with no other people, and kept from a database of the older model', async () => {
    const data = tempDir();
    let own = await TestServer.start({ data, clock });
    try {
      const owner = own.owner;
      const ownerId = own.ownerId;
      const other = await own.createUser();
      const note = await sendMessage(owner, { type: 'direct', to: [ownerId], content: 'note to self' });
      const toOther = await sendMessage(owner, { type: 'direct', to: [other.userId], content: 'hi' });
      const get = async (client: Client, id: number) => ok(valid12('GET', `/messages/${id}`, await client.get(`/messages/${id}`))).message;
      const recipient = (await get(owner, note)).recipient_id as number;
      assert.notEqual(recipient, (await get(owner, toOther)).recipient_id);
      const narrowed = async (client: Client, narrow: unknown[]) =>
        ok(valid12('GET', '/messages', await client.get('/messages', { narrow, anchor: 'newest', num_before: 20, num_after: 0 }))).messages.map(
          (m: { id: number; recipient_id: number }) => [m.id, m.recipient_id],
        );
      const check = async (client: Client, notes: number[]) => {
        const message = await get(client, notes[0]);
        assert.deepEqual(message.display_recipient.map((p: { id: number }) => p.id), [ownerId]);
        assert.deepEqual(await narrowed(client, [{ operator: 'dm', operand: [ownerId] }]), notes.map((id) => [id, recipient]));
        assert.deepEqual(
          (await narrowed(client, [{ operator: 'dm-including', operand: ownerId }])).map(([id]: number[]) => id),
          [...notes, toOther].sort((a, b) => a - b),
        );
        const state = ok(valid12('POST', '/register', await client.post('/register', { fetch_event_types: ['recent_private_conversations'] })));
        assert.deepEqual(
          state.recent_private_conversations.filter((c: { user_ids: number[] }) => c.user_ids.length === 0),
          [{ user_ids: [], max_message_id: notes.at(-1) }],
        );
      };
      await check(owner, [note]);

      // A database written before level 482 kept notes to oneself on the person's personal
      // recipient; upgraded, they keep their recipient_id, which new notes share.
      await own.running.close();
      const db = new Database(path.join(data, 'stoa.db'));
      const group = db.prepare('SELECT id FROM direct_message_groups WHERE recipient_id = ?').get(recipient) as { id: number };
      db.prepare('DELETE FROM direct_message_groups WHERE id = ?').run(group.id);
      db.prepare('UPDATE recipients SET type = 1, type_id = ? WHERE id = ?').run(ownerId, recipient);
      // What the upgrade from schema 31 does (lib/db.ts runs it as that migration).
      notesToSelfAsGroups(db);
      db.close();
      own = await TestServer.start({ data, clock });
      const later = await sendMessage(own.owner, { type: 'direct', to: [ownerId], content: 'another note' });
      await check(own.owner, [note, later]);
    } finally {
      await own.close();
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe('message retention (level 452)', () => {
  test('messages older than the policy keeps are deleted once a day, with delete_message events', async () => {
    const member = await server.createUser();
    const bulk = { client_capabilities: { bulk_message_deletion: true } };
    const channel = await createChannel(server.owner, { principals: JSON.stringify([server.ownerId, member.userId]) });
    const kept = await createChannel(server.owner, { principals: JSON.stringify([server.ownerId, member.userId]) });
    ok(await server.owner.patch(`/streams/${channel.id}`, { message_retention_days: 3 }));
    const old = [
      await sendMessage(server.owner, { type: 'stream', to: channel.id, topic: 'old', content: 'one' }),
      await sendMessage(member, { type: 'stream', to: channel.id, topic: 'old', content: 'two' }),
    ];
    const otherTopic = await sendMessage(server.owner, { type: 'stream', to: channel.id, topic: 'older', content: 'three' });
    const elsewhere = await sendMessage(server.owner, { type: 'stream', to: kept.id, topic: 'kept', content: 'kept' });
    const dm = await sendMessage(server.owner, { type: 'direct', to: [member.userId], content: 'a direct message' });
    // The queue outlives the days the clock is moved on (an idle queue lives ten minutes).
    const events = await listen12(member, { event_types: ['delete_message'], idle_queue_timeout: 7 * 86_400, ...bulk });

    clock.advance(2 * 86_400_000);
    const recent = await sendMessage(server.owner, { type: 'stream', to: channel.id, topic: 'old', content: 'recent' });
    clock.advance(2 * 86_400_000);
    await new Promise((resolve) => setImmediate(resolve));
    const seen = await events();
    assert.deepEqual(
      seen.filter((e) => e.stream_id === channel.id && e.topic !== 'channel events'),
      [
        { type: 'delete_message', message_ids: old, message_type: 'stream', stream_id: channel.id, topic: 'old' },
        { type: 'delete_message', message_ids: [otherTopic], message_type: 'stream', stream_id: channel.id, topic: 'older' },
      ],
    );
    const exists = async (id: number) => (await member.get(`/messages/${id}`)).status === 200;
    assert.deepEqual(await Promise.all([...old, otherTopic].map(exists)), [false, false, false]);
    assert.deepEqual(await Promise.all([recent, elsewhere, dm].map(exists)), [true, true, true], 'younger, or not under the policy');

    // The organization's policy covers direct messages and the channels that inherit it.
    ok(await server.owner.patch('/realm', { message_retention_days: 1 }));
    clock.advance(86_400_000);
    await new Promise((resolve) => setImmediate(resolve));
    const later = await events();
    assert.ok(later.some((e) => e.message_type === 'private' && e.message_ids.includes(dm)));
    assert.ok(later.some((e) => e.stream_id === kept.id && e.message_ids.includes(elsewhere)));
    ok(await server.owner.patch('/realm', { message_retention_days: 'unlimited' }));

    await server.restart();
    const after = again(member);
    for (const id of [...old, otherTopic, elsewhere, dm]) assert.equal((await after.get(`/messages/${id}`)).status, 400);
  });
});
