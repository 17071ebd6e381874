import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { sendMessage as send } from './support/messages';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

type Member = Awaited<ReturnType<TestServer['createUser']>>;

/** A channel with the owner and two members in it. */
async function setting() {
  const alice = await server.createUser('Alice');
  const bob = await server.createUser('Bob');
  const channel = await createChannel(server.owner, { principals: [server.ownerId, alice.userId, bob.userId] });
  return { alice, bob, channel };
}

async function submessagesOf(client: Client, id: number): Promise<Array<Record<string, any>>> {
  const response = await client.get(`/messages/${id}`);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.message.submessages;
}

function post(client: Client, messageId: number, content: unknown, msgType = 'widget') {
  return client.post('/submessage', {
    message_id: messageId,
    msg_type: msgType,
    content: typeof content === 'string' ? content : JSON.stringify(content),
  });
}

async function accepted(client: Client, messageId: number, content: unknown): Promise<void> {
  const response = await post(client, messageId, content);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.deepEqual(response.body, { result: 'success', msg: '' });
}

async function refused(client: Client, messageId: number, content: unknown, msg: string, msgType?: string): Promise<void> {
  const response = await post(client, messageId, content, msgType);
  assert.equal(response.status, 400, JSON.stringify(response.body));
  assert.deepEqual(response.body, { result: 'error', msg, code: 'BAD_REQUEST' });
}

/** The first submessage Zulip's server writes for a widget, with Python's JSON spacing. */
function widgetContent(widgetType: string, extraData: string): string {
  return `{"widget_type": "${widgetType}", "extra_data": ${extraData}}`;
}

describe('sending /poll', () => {
  test('makes the message a poll: its first submessage is the sender’s, with the question and options', async () => {
    const { alice, channel } = await setting();
    const hear = await listen(alice, { event_types: ['message', 'submessage'] });
    const content = '/poll What is for lunch?\n\nPizza\n  - Salad  \n* Soup\n\n';
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'lunch', content });
    const widget = {
      id: 0,
      message_id: id,
      sender_id: server.ownerId,
      msg_type: 'widget',
      content: widgetContent('poll', '{"question": "What is for lunch?", "options": ["Pizza", "Salad", "Soup"]}'),
    };
    const [shown] = await submessagesOf(alice, id);
    assert.deepEqual(shown, { ...widget, id: shown.id });
    // The message event carries it already; there is no separate submessage event for it.
    const events = await hear();
    assert.deepEqual(
      events.map((e) => e.type),
      ['message'],
    );
    assert.deepEqual(events[0].message.submessages, [shown]);
  });

  test('renders the content as any other message (clients draw the widget over it)', async () => {
    const { channel } = await setting();
    const content = '/poll Tea or coffee?\nTea\nCoffee';
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'drinks', content });
    const message = (await server.owner.get(`/messages/${id}`)).body.message;
    const rendered = (await server.owner.post('/messages/render', { content })).body.rendered;
    assert.equal(message.content, rendered);
    assert.match(rendered, /^<p>\/poll Tea or coffee\?<br>/);
    assert.equal((await server.owner.get(`/messages/${id}`, { apply_markdown: false })).body.message.content, content);
  });

  test('without a question, takes the options from the following lines', async () => {
    const { channel } = await setting();
    const bare = await send(server.owner, { type: 'stream', to: channel.name, topic: 'p', content: '/poll' });
    const listed = await send(server.owner, { type: 'stream', to: channel.name, topic: 'p', content: '/poll\nRed\n-Green' });
    assert.equal((await submessagesOf(server.owner, bare))[0].content, widgetContent('poll', '{"question": "", "options": []}'));
    assert.equal(
      (await submessagesOf(server.owner, listed))[0].content,
      widgetContent('poll', '{"question": "", "options": ["Red", "Green"]}'),
    );
  });

  test('escapes what is not ASCII, as Zulip writes it', async () => {
    const { channel } = await setting();
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'p', content: '/poll Café? 🍰\n"Oui"' });
    const [widget] = await submessagesOf(server.owner, id);
    assert.equal(widget.content, widgetContent('poll', '{"question": "Caf\\u00e9? \\ud83c\\udf70", "options": ["\\"Oui\\""]}'));
    assert.deepEqual(JSON.parse(widget.content).extra_data, { question: 'Café? 🍰', options: ['"Oui"'] });
  });

  test('works in direct messages too', async () => {
    const { alice } = await setting();
    const id = await send(server.owner, { type: 'direct', to: [alice.userId], content: '/poll Meet today?\nYes\nNo' });
    assert.deepEqual(
      (await submessagesOf(alice, id)).map((s) => [s.sender_id, s.content]),
      [[server.ownerId, widgetContent('poll', '{"question": "Meet today?", "options": ["Yes", "No"]}')]],
    );
  });

  test('only when the message starts with the command itself', async () => {
    const { channel } = await setting();
    for (const content of ['use /poll', '/polls are fun', '  /poll indented', '/me shrugs', '/bogus', '/Poll']) {
      const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'not widgets', content });
      assert.deepEqual(await submessagesOf(server.owner, id), [], content);
    }
  });
});

describe('sending with widget_content', () => {
  test('a zform given whole becomes the widget, whatever the content says', async () => {
    const { channel } = await setting();
    const widget = {
      widget_type: 'zform',
      extra_data: { type: 'choices', heading: 'Pick one', choices: [{ short_name: 'A', long_name: 'Apple', reply: 'apple' }] },
    };
    const id = await send(server.owner, {
      type: 'stream',
      to: channel.name,
      topic: 'zform',
      content: '/poll Not this one',
      widget_content: JSON.stringify(widget),
    });
    const [stored] = await submessagesOf(server.owner, id);
    assert.equal(
      stored.content,
      '{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Pick one", ' +
        '"choices": [{"short_name": "A", "long_name": "Apple", "reply": "apple"}]}}',
    );
  });

  test('refuses what is not a zform, in Zulip’s words', async () => {
    const { channel } = await setting();
    const attempt = async (widgetContent: string, msg: string) => {
      const response = await server.owner.post('/messages', {
        type: 'stream',
        to: channel.name,
        topic: 'zform',
        content: 'hello',
        widget_content: widgetContent,
      });
      assert.equal(response.status, 400, widgetContent);
      assert.equal(response.body.msg, msg);
    };
    await attempt('{{{', 'Widgets: API programmer sent invalid JSON content');
    await attempt('5', 'Widgets: widget_content is not a dict');
    await attempt(`{"widget_type": "zform", "extra_data": {"deep": ${'['.repeat(5000)}${']'.repeat(5000)}}}`, 'Widgets: API programmer sent invalid JSON content');
    await attempt('{}', 'Widgets: widget_type is not in widget_content');
    await attempt('{"widget_type": "zform"}', 'Widgets: extra_data is not in widget_content');
    await attempt('{"widget_type": "zform", "extra_data": 4}', 'Widgets: extra_data is not a dict');
    await attempt('{"widget_type": "poll", "extra_data": {}}', 'Widgets: unknown widget type: poll');
    await attempt('{"widget_type": "zform", "extra_data": {}}', 'Widgets: zform is missing type field');
    await attempt('{"widget_type": "zform", "extra_data": {"type": "bogus"}}', 'Widgets: unknown zform type: bogus');
    const zform = (extra: Record<string, unknown>) => JSON.stringify({ widget_type: 'zform', extra_data: { type: 'choices', ...extra } });
    await attempt(zform({}), 'Widgets: heading key is missing from extra_data');
    await attempt(zform({ heading: 'h', choices: 99 }), 'Widgets: extra_data["choices"] is not a list');
    await attempt(zform({ heading: 'h', choices: [99] }), 'Widgets: extra_data["choices"][0] is not a dict');
    await attempt(
      zform({ heading: 'h', choices: [{ long_name: 'foo', reply: 'bar' }] }),
      'Widgets: short_name key is missing from extra_data["choices"][0]',
    );
  });
});

describe('POST /submessage on a poll', () => {
  test('votes and new options from several people reach everyone with the message, in order', async () => {
    const { alice, bob, channel } = await setting();
    const outsider = await server.createUser('Outsider');
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'vote', content: '/poll Best day?\nMonday\nFriday' });
    const queues = new Map<string, Awaited<ReturnType<typeof listen>>>();
    for (const [name, client] of [['owner', server.owner], ['alice', alice], ['bob', bob], ['outsider', outsider]] as const) {
      queues.set(name, await listen(client, { event_types: ['submessage'] }));
    }
    const votes: Array<[Member | Client, number, Record<string, unknown>]> = [
      [alice, alice.userId, { type: 'vote', key: 'canned,1', vote: 1 }],
      [bob, bob.userId, { type: 'new_option', idx: 1, option: 'Sunday' }],
      [bob, bob.userId, { type: 'vote', key: `${bob.userId},1`, vote: 1 }],
      [alice, alice.userId, { type: 'vote', key: 'canned,1', vote: -1 }],
      [server.owner, server.ownerId, { type: 'question', question: 'Best day of the week?' }],
    ];
    for (const [client, , content] of votes) await accepted(client as Client, id, content);

    const stored = await submessagesOf(bob, id);
    assert.equal(stored.length, 1 + votes.length);
    assert.deepEqual(
      stored.slice(1).map((s) => [s.sender_id, s.msg_type, JSON.parse(s.content)]),
      votes.map(([, senderId, content]) => [senderId, 'widget', content]),
    );
    const ids = stored.map((s) => s.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    // The content is kept as the client sent it, byte for byte.
    assert.equal(stored[1].content, JSON.stringify(votes[0][2]));

    const expected = stored.slice(1).map((s) => ({
      type: 'submessage',
      msg_type: 'widget',
      message_id: id,
      submessage_id: s.id,
      sender_id: s.sender_id,
      content: s.content,
    }));
    for (const name of ['owner', 'alice', 'bob']) assert.deepEqual(await queues.get(name)!(), expected, name);
    // Not subscribed, so the message is not theirs, and neither are its events.
    assert.deepEqual(await queues.get('outsider')!(), []);

    // GET /messages shows the same list, in order.
    const fetched = await alice.get('/messages', {
      anchor: id,
      num_before: 0,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: channel.id }],
    });
    assert.deepEqual(fetched.body.messages[0].submessages, stored);
  });

  test('someone reading a public channel’s history may vote, and hears of their own vote', async () => {
    const { channel } = await setting();
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'open', content: '/poll Open?\nYes' });
    const reader = await server.createUser('Reader');
    const hear = await listen(reader, { event_types: ['submessage'] });
    await accepted(reader, id, { type: 'vote', key: 'canned,0', vote: 1 });
    assert.deepEqual(
      (await hear()).map((e) => [e.sender_id, e.message_id]),
      [[reader.userId, id]],
    );
  });

  test('refuses what is not one of the poll’s events, in Zulip’s words', async () => {
    const { alice, channel } = await setting();
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'bad votes', content: '/poll Q\nA' });
    await refused(alice, id, 'not json', 'Invalid json for submessage');
    await refused(alice, id, '"a string"', 'poll data is not a dict');
    await refused(alice, id, '[]', 'poll data is not a dict');
    await refused(alice, id, {}, 'type key is missing from poll data');
    await refused(alice, id, { type: 7 }, 'poll data["type"] is not a string');
    await refused(alice, id, { type: 'bogus' }, 'Unknown type for poll data: bogus');
    await refused(alice, id, { type: 'vote' }, 'key key is missing from poll data');
    await refused(alice, id, { type: 'vote', key: 5, vote: 1 }, 'poll data["key"] is not a string');
    await refused(alice, id, { type: 'vote', key: '1,1', vote: 99 }, 'Invalid poll data["vote"]');
    await refused(alice, id, { type: 'vote', key: '1,1', vote: 'yes' }, 'poll data["vote"] is not an integer');
    await refused(alice, id, { type: 'vote', key: '1,1', vote: 1, extra: true }, 'Unexpected arguments: extra');
    await refused(alice, id, { type: 'new_option', idx: 7, option: 999 }, 'poll data["option"] is not a string');
    await refused(alice, id, { type: 'new_option', idx: -1, option: 'pizza' }, 'poll data["idx"] is too small');
    await refused(alice, id, { type: 'new_option', idx: 1001, option: 'pizza' }, 'poll data["idx"] is too large');
    await refused(alice, id, { type: 'new_option', idx: 'x', option: 'pizza' }, 'poll data["idx"] is not an integer');
    await refused(alice, id, { type: 'question', question: 'Mine now?' }, "You can't edit a question unless you are the author.");
    await refused(server.owner, id, { type: 'question', question: 7 }, 'poll data["question"] is not a string');
    // Nothing refused was stored.
    assert.equal((await submessagesOf(alice, id)).length, 1);
  });
});

describe('POST /submessage on a to-do list', () => {
  test('sending /todo makes a list of the following lines, a task’s description after its first ": "', async () => {
    const { channel } = await setting();
    const content = '/todo Weekend chores\nDishes: after dinner: quickly\n- Laundry\n\n* Shopping :  milk ';
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'todo', content });
    assert.equal(
      (await submessagesOf(server.owner, id))[0].content,
      widgetContent(
        'todo',
        '{"task_list_title": "Weekend chores", "tasks": [{"task": "Dishes", "desc": "after dinner: quickly"}, ' +
          '{"task": "Laundry", "desc": ""}, {"task": "Shopping", "desc": "milk"}]}',
      ),
    );
    const bare = await send(server.owner, { type: 'stream', to: channel.name, topic: 'todo', content: '/todo' });
    assert.equal((await submessagesOf(server.owner, bare))[0].content, widgetContent('todo', '{"task_list_title": "", "tasks": []}'));
  });

  test('tasks are added and ticked by anyone, the title changed by its author alone', async () => {
    const { alice, bob, channel } = await setting();
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'tasks', content: '/todo Trip\nTickets' });
    const hear = await listen(bob, { event_types: ['submessage'] });
    const events = [
      [alice, { type: 'new_task', key: 1, task: 'Hotel', desc: 'near the station', completed: false }],
      [bob, { type: 'strike', key: '0,canned' }],
      [alice, { type: 'strike', key: `1,${alice.userId}` }],
      [bob, { type: 'strike', key: '0,canned' }],
      [server.owner, { type: 'new_task_list_title', title: 'Summer trip' }],
    ] as const;
    for (const [client, content] of events) await accepted(client, id, content);
    assert.deepEqual(
      (await hear()).map((e) => JSON.parse(e.content)),
      events.map(([, content]) => content),
    );
    assert.deepEqual(
      (await submessagesOf(alice, id)).slice(1).map((s) => JSON.parse(s.content).type),
      ['new_task', 'strike', 'strike', 'strike', 'new_task_list_title'],
    );

    await refused(alice, id, { type: 'new_task_list_title', title: 'Mine' }, "You can't edit the task list title unless you are the author.");
    await refused(alice, id, { type: 'new_task', key: 1001, task: 'x', desc: '', completed: false }, 'todo data["key"] is too large');
    await refused(alice, id, { type: 'new_task', key: 2, task: 'x', desc: '', completed: 'no' }, 'todo data["completed"] is not a boolean');
    await refused(alice, id, { type: 'new_task', key: 2, task: 'x', completed: false }, 'desc key is missing from todo data');
    await refused(alice, id, { type: 'strike', key: 0 }, 'todo data["key"] is not a string');
    await refused(alice, id, { type: 'vote', key: '0', vote: 1 }, 'Unknown type for todo data: vote');
  });
});

describe('POST /submessage errors and rules', () => {
  test('a message the user may not read, or that does not exist, is an invalid message', async () => {
    const { alice } = await setting();
    const secret = await createChannel(server.owner, { invite_only: true });
    const hidden = await send(server.owner, { type: 'stream', to: secret.name, topic: 't', content: '/poll Secret?' });
    await refused(alice, hidden, { type: 'vote', key: 'canned,0', vote: 1 }, 'Invalid message(s)');
    const direct = await send(server.owner, { type: 'direct', to: [server.ownerId], content: '/poll Note to self' });
    await refused(alice, direct, { type: 'vote', key: 'canned,0', vote: 1 }, 'Invalid message(s)');
    await refused(alice, 999_999, { type: 'vote', key: 'canned,0', vote: 1 }, 'Invalid message(s)');
  });

  test('parameters: msg_type must be widget, and all three are required', async () => {
    const { alice, channel } = await setting();
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 't', content: '/poll Q' });
    await refused(alice, id, { type: 'vote', key: 'canned,0', vote: 1 }, 'Invalid msg_type', 'whatever');
    const missing = await alice.post('/submessage', { message_id: id, msg_type: 'widget' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.msg, "Missing 'content' argument");
    const badId = await alice.post('/submessage', { message_id: 'seven', msg_type: 'widget', content: '{}' });
    assert.equal(badId.status, 400);
  });

  test('on an ordinary message, its sender must start: others may follow once they have', async () => {
    const { alice, bob, channel } = await setting();
    const id = await send(alice, { type: 'stream', to: channel.name, topic: 't', content: 'just text' });
    await refused(bob, id, { anything: 'goes' }, 'You cannot attach a submessage to this message.');
    // Not a poll or a list, so any JSON is taken as it is.
    await accepted(alice, id, { anything: 'goes' });
    await accepted(bob, id, [1, 2, 3]);
    await refused(bob, id, '{oops', 'Invalid json for submessage');
    // Zulip's JSON parser takes at most 1024 levels of nesting.
    await refused(bob, id, `${'['.repeat(1025)}${']'.repeat(1025)}`, 'Invalid json for submessage');
    await accepted(bob, id, `${'['.repeat(1024)}${']'.repeat(1024)}`);
    assert.deepEqual(
      (await submessagesOf(server.owner, id)).map((s) => [s.sender_id, s.content]),
      [
        [alice.userId, '{"anything":"goes"}'],
        [bob.userId, '[1,2,3]'],
        [bob.userId, `${'['.repeat(1024)}${']'.repeat(1024)}`],
      ],
    );
  });

  test('a message with a widget cannot have its content edited; its topic can still change', async () => {
    const { channel } = await setting();
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'edit me', content: '/poll Q\nA' });
    const edited = await server.owner.patch(`/messages/${id}`, { content: '/poll Q\nA\nB' });
    assert.equal(edited.status, 400);
    assert.deepEqual(edited.body, { result: 'error', msg: 'Widgets cannot be edited.', code: 'BAD_REQUEST' });
    const moved = await server.owner.patch(`/messages/${id}`, { topic: 'edited' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    // Editing an ordinary message into a poll command makes no widget of it.
    const plain = await send(server.owner, { type: 'stream', to: channel.name, topic: 'edit me', content: 'not yet' });
    assert.equal((await server.owner.patch(`/messages/${plain}`, { content: '/poll Now?' })).status, 200);
    assert.deepEqual(await submessagesOf(server.owner, plain), []);
  });
});

describe('submessages are stored with their message', () => {
  test('deleting the message deletes its submessages', async () => {
    const { alice, channel } = await setting();
    const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'gone', content: '/poll Q\nA' });
    await accepted(alice, id, { type: 'vote', key: 'canned,0', vote: 1 });
    const count = () =>
      (server.stoa.db.prepare('SELECT count(*) AS n FROM submessages WHERE message_id = ?').get(id) as { n: number }).n;
    assert.equal(count(), 2);
    assert.equal((await server.owner.delete(`/messages/${id}`)).status, 200);
    assert.equal(count(), 0);
    await refused(alice, id, { type: 'vote', key: 'canned,0', vote: -1 }, 'Invalid message(s)');
  });

  test('a restart keeps them, and new ones continue after them', async () => {
    const restartable = await TestServer.start();
    try {
      const alice = await restartable.createUser('Alice');
      const { name } = await createChannel(restartable.owner, { principals: [restartable.ownerId, alice.userId] });
      const id = await send(restartable.owner, { type: 'stream', to: name, topic: 'kept', content: '/todo List\nOne' });
      await accepted(alice, id, { type: 'strike', key: '0,canned' });
      const before = await submessagesOf(alice, id);
      await restartable.restart();
      const again = restartable.anonymous.as(alice.credentials);
      assert.deepEqual(await submessagesOf(again, id), before);
      await accepted(again, id, { type: 'strike', key: '0,canned' });
      const after = await submessagesOf(again, id);
      assert.equal(after.length, 3);
      assert.ok(after[2].id > before[1].id);
    } finally {
      await restartable.close();
    }
  });
});
