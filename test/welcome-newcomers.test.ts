import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser } from './support/browser';
import type { Client } from './support/client';
import { TestServer } from './support/server';

// Welcome Bot's first direct message reaches everyone who joins a running organization, as
// Zulip's does: made by an administrator, or signing up through an invitation (then before the
// invitation's own welcome text). Every response is checked against zulip.yaml by the client.

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const WELCOME_BOT = 'welcome-bot@stoa.local';

interface Received {
  id: number;
  sender_email: string;
  content: string;
  type: string;
  flags: string[];
  display_recipient: Array<{ id: number }> | string;
}

async function fromWelcomeBot(client: Client): Promise<Received[]> {
  const response = await client.get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, apply_markdown: false });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return (response.body.messages as Received[]).filter((message) => message.sender_email === WELCOME_BOT);
}

async function joinThrough(params: Record<string, unknown>, name: string): Promise<Client> {
  const made = await server.owner.post('/invites/multiuse', params);
  assert.equal(made.status, 200, JSON.stringify(made.body));
  const key = /\/join\/([a-z2-7]+)\//.exec(made.body.invite_link as string)![1];
  const email = `${name.toLowerCase()}@example.com`;
  const response = await new Browser(server.url).request('POST', '/accounts/register', { key, email, full_name: name, password: 'a-long-password' });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const login = await server.anonymous.post('/fetch_api_key', { username: email, password: 'a-long-password' });
  return server.anonymous.as({ email, apiKey: login.body.api_key });
}

describe('Welcome Bot greets everyone who joins', () => {
  test('a person an administrator made gets one unread direct message, addressed to them alone', async () => {
    const before = (await fromWelcomeBot(server.owner)).length;
    const newcomer = await server.createUser('Nadia Newcomer');
    const welcome = await fromWelcomeBot(newcomer);
    assert.equal(welcome.length, 1);
    const [message] = welcome;
    assert.equal(message.type, 'private');
    assert.deepEqual(
      (message.display_recipient as Array<{ id: number }>).map((person) => person.id).sort((a, b) => a - b),
      [newcomer.userId, server.stoa.users.byAnyEmail(WELCOME_BOT)!.id].sort((a, b) => a - b),
    );
    assert.ok(!message.flags.includes('read'), 'it waits unread');
    assert.match(message.content, /Nadia Newcomer/);
    assert.match(message.content, /\(#settings\/profile\)/, 'it points at the profile settings');
    assert.doesNotMatch(message.content, /#organization\)/, 'members are not sent to the organization settings');
    assert.equal((await fromWelcomeBot(server.owner)).length, before, 'nobody else hears of it');
  });

  test('who signs up through an invitation gets it first, then the invitation’s own text', async () => {
    const member = await joinThrough({ welcome_message_custom_text: 'Say hello in #**general**.' }, 'Ivo');
    const welcome = await fromWelcomeBot(member);
    assert.equal(welcome.length, 2);
    assert.match(welcome[0].content, /welcome to/i);
    assert.equal(welcome[1].content, 'Say hello in #**general**.');
    assert.ok(welcome[0].id < welcome[1].id);
  });

  test('an administrator is also pointed at the organization settings', async () => {
    const admin = await joinThrough({ invite_as: 200, welcome_message_custom_text: '' }, 'Ada');
    const welcome = await fromWelcomeBot(admin);
    assert.equal(welcome.length, 1, 'an empty invitation text adds nothing');
    assert.match(welcome[0].content, /\(#organization\)/);
  });

  test('the message is kept over a restart', async () => {
    const newcomer = await server.createUser('Rita Restart');
    await server.restart();
    const again = server.anonymous.as(newcomer.credentials);
    assert.equal((await fromWelcomeBot(again)).length, 1);
  });
});
