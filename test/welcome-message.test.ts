import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser } from './support/browser';
import type { Client } from './support/client';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const WELCOME_BOT = 'welcome-bot@stoa.local';
let joined = 0;

/** Signs up through an invitation link and returns the new person's client. */
async function joinThrough(link: string): Promise<Client> {
  joined += 1;
  const key = /\/join\/([a-z2-7]+)\//.exec(link)![1];
  const email = `newcomer${joined}@example.com`;
  const response = await new Browser(server.url).request('POST', '/accounts/register', { key, email, full_name: `Newcomer ${joined}`, password: 'a-long-password' });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const login = await server.anonymous.post('/fetch_api_key', { username: email, password: 'a-long-password' });
  return server.anonymous.as({ email, apiKey: login.body.api_key });
}

async function welcomeMessages(client: Client): Promise<string[]> {
  const response = await client.get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: false });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const contents = response.body.messages
    .filter((message: { sender_email: string }) => message.sender_email === WELCOME_BOT)
    .map((message: { content: string }) => message.content);
  // Everyone who joins gets Welcome Bot's greeting first (test/welcome-newcomers.test.ts); the custom text follows it.
  assert.match(contents[0], /welcome to/i);
  return contents.slice(1);
}

async function inviteLink(params: Record<string, unknown> = {}, client: Client = server.owner): Promise<string> {
  const response = await client.post('/invites/multiuse', params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.invite_link as string;
}

describe('the Welcome Bot\'s custom message', () => {
  test('is the organization\'s setting, in register and its events, and sent to people who join', async () => {
    assert.equal((await server.owner.post('/register', { fetch_event_types: ['realm'] })).body.realm_welcome_message_custom_text, '');
    const silent = await joinThrough(await inviteLink());
    assert.deepEqual(await welcomeMessages(silent), [], 'no text, no message');

    const changed = await server.owner.patch('/realm', { welcome_message_custom_text: 'Read #**general** first.' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await server.owner.post('/register', { fetch_event_types: ['realm'] })).body.realm_welcome_message_custom_text, 'Read #**general** first.');
    const newcomer = await joinThrough(await inviteLink());
    assert.deepEqual(await welcomeMessages(newcomer), ['Read #**general** first.']);
  });

  test('can be chosen per invitation by administrators, or switched off with an empty text', async () => {
    await server.owner.patch('/realm', { welcome_message_custom_text: 'Organization text' });
    const own = await joinThrough(await inviteLink({ welcome_message_custom_text: 'Invitation text' }));
    assert.deepEqual(await welcomeMessages(own), ['Invitation text']);
    const none = await joinThrough(await inviteLink({ welcome_message_custom_text: '' }));
    assert.deepEqual(await welcomeMessages(none), []);

    const member = await joinThrough(await inviteLink());
    await server.owner.patch('/realm', { create_multiuse_invite_group: { new: server.groupId('role:members') } });
    const refused = await member.post('/invites/multiuse', { welcome_message_custom_text: 'Member text' });
    assert.deepEqual([refused.status, refused.body], [400, { result: 'error', msg: 'Must be an organization administrator', code: 'BAD_REQUEST' }]);
    const byMember = await joinThrough(await inviteLink({}, member));
    assert.deepEqual(await welcomeMessages(byMember), ['Organization text'], 'a member\'s invitation uses the organization\'s text');
  });

  test('is sent to everyone who joins, an account an administrator made included, and only once', async () => {
    await server.owner.patch('/realm', { welcome_message_custom_text: 'Welcome, whoever you are.' });
    const made = await server.createUser();
    assert.deepEqual(await welcomeMessages(made), ['Welcome, whoever you are.']);
    const invited = await joinThrough(await inviteLink());
    assert.deepEqual(await welcomeMessages(invited), ['Welcome, whoever you are.']);
    await server.owner.patch('/realm', { welcome_message_custom_text: '' });
    assert.deepEqual(await welcomeMessages(await server.createUser()), []);
  });

  test('can be tried out by administrators, who receive it themselves', async () => {
    const response = await server.owner.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Hello **you**' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const message = (await server.owner.get(`/messages/${response.body.message_id}`)).body.message;
    assert.deepEqual([message.sender_email, message.content], [WELCOME_BOT, '<p>Hello <strong>you</strong></p>']);

    const member = await joinThrough(await inviteLink());
    const cases: Array<[Client, Record<string, unknown>, string]> = [
      [member, { welcome_message_custom_text: 'x' }, 'Must be an organization administrator'],
      [server.owner, { welcome_message_custom_text: ' ' }, 'Message must not be empty'],
      [server.owner, { welcome_message_custom_text: 'x'.repeat(8001) }, 'welcome_message_custom_text is too long (limit: 8000 characters)'],
    ];
    for (const [client, params, msg] of cases) {
      const refused = await client.post('/realm/test_welcome_bot_custom_message', params);
      assert.deepEqual([refused.status, refused.body.msg], [400, msg]);
    }
  });
});
