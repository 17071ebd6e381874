/**
 * The integrations of Zulip 10.2 whose tests are not in ../shared/zulip/webhook-cases.json:
 * each posts, through HTTP against a real server, what Zulip posts for the service's payload.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TestServer } from './support/server';

let server: TestServer;
let bot: { email: string; apiKey: string };
const CHANNEL = 'services';

before(async () => {
  server = await TestServer.start();
  const created = await server.owner.post('/bots', { full_name: 'Services', short_name: 'services', bot_type: 2 });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  bot = { email: (await server.owner.get(`/users/${created.body.user_id}`)).body.user.email, apiKey: created.body.api_key };
  const subscribed = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: CHANNEL }], principals: [server.ownerId, created.body.user_id] });
  assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));
});

after(() => server?.close());

interface Sent {
  status: number;
  body: any;
  /** The channel's newest message after the request, as raw Markdown. */
  newest: { subject: string; content: string } | undefined;
}

/** Posts `body` to the integration's URL as the service would, and reads the channel's newest message. */
async function send(integration: string, body: string, options: { contentType?: string; query?: Record<string, string>; basic?: boolean } = {}): Promise<Sent> {
  const query = new URLSearchParams({ stream: CHANNEL, ...options.query });
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
  if (options.basic) headers.authorization = `Basic ${Buffer.from(`${bot.email}:${bot.apiKey}`).toString('base64')}`;
  else query.set('api_key', bot.apiKey);
  const response = await fetch(`${server.url}/api/v1/external/${integration}?${query}`, { method: 'POST', headers, body });
  const answer = await response.json();
  const messages = await server.owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: JSON.stringify([{ operator: 'channel', operand: CHANNEL }]) });
  return { status: response.status, body: answer, newest: messages.body.messages.at(-1) };
}

function assertPosted(sent: Sent, topic: string, content: string): void {
  assert.deepEqual([sent.status, sent.body.result], [200, 'success'], JSON.stringify(sent.body));
  assert.deepEqual([sent.newest?.subject, sent.newest?.content], [topic, content]);
}

test('airbrake and errbit: the error class linked, its message, in the project topic', async () => {
  const airbrake = await send('airbrake', JSON.stringify({ airbrake_error_url: 'https://ab.example/e/1', error: { error_class: 'KeyError', error_message: 'no key', project: { name: 'Shop' } } }));
  assertPosted(airbrake, 'Shop', '[KeyError](https://ab.example/e/1): "no key" occurred.');
  const errbit = await send('errbit', JSON.stringify({ problem: { app_name: 'Shop', environment: 'production', url: 'https://eb.example/p/2', error_class: 'NameError', message: 'undefined x' } }));
  assertPosted(errbit, 'Shop / production', '[NameError](https://eb.example/p/2): "undefined x" occurred.');
  const broken = await send('airbrake', JSON.stringify({ error: {} }));
  assert.deepEqual([broken.status, broken.body.result], [400, 'error']);
});

test('airbyte: a sync, succeeded or failed with its error, and the test notification', async () => {
  const data = (success: boolean) => ({
    data: {
      workspace: { name: 'Data' },
      connection: { name: 'pg to lake', url: 'https://air.example/c' },
      source: { name: 'pg', url: 'https://air.example/s' },
      destination: { name: 'lake', url: 'https://air.example/d' },
      success,
      durationFormatted: '1m 2s',
      recordsEmitted: 10,
      recordsCommitted: 9,
      bytesEmittedFormatted: '1 KB',
      bytesCommittedFormatted: '900 B',
      ...(success ? {} : { errorMessage: 'disk full' }),
    },
  });
  const lines = (emoji: string, word: string) =>
    `${emoji} Airbyte sync **${word}** for [pg to lake](https://air.example/c).\n* **Source:** [pg](https://air.example/s)\n* **Destination:** [lake](https://air.example/d)\n` +
    '* **Records:** 10 emitted, 9 committed\n* **Bytes:** 1 KB emitted, 900 B committed\n* **Duration:** 1m 2s\n';
  assertPosted(await send('airbyte', JSON.stringify(data(true))), 'Data - pg to lake', lines(':green_circle:', 'succeeded').trimEnd());
  assertPosted(await send('airbyte', JSON.stringify(data(false))), 'Data - pg to lake', `${lines(':red_circle:', 'failed')}\n**Error message:** disk full`);
  assertPosted(await send('airbyte', JSON.stringify({ text: 'Hello from Airbyte' })), 'Airbyte notification', 'Hello from Airbyte');
});

test('appveyor: the build with its commit', async () => {
  const eventData = {
    projectName: 'lib', buildVersion: '1.0.7', status: 'Succeeded', buildUrl: 'https://ci.example/b/7', commitUrl: 'https://git.example/c/abc',
    committerName: 'Ann', commitDate: '2026-11-27', commitMessage: 'Tidy', commitId: 'abc', started: '11/27/2026 8:00 PM', finished: '11/27/2026 8:02 PM',
  };
  assertPosted(
    await send('appveyor', JSON.stringify({ eventData })),
    'lib',
    '[Build lib 1.0.7 Succeeded](https://ci.example/b/7):\n* **Commit**: [abc: Tidy](https://git.example/c/abc) by Ann\n* **Started**: 11/27/2026 8:00 PM\n* **Finished**: 11/27/2026 8:02 PM',
  );
});

test('beeminder: the hours left before a goal derails, worried when money is pledged (form-encoded JSON too)', async () => {
  const goal = (pledge: number) => ({ goal: { slug: 'run', limsum: '+2 in 3 days', pledge, losedate: Math.round(Date.now() / 1000 + 5.6 * 3600) } });
  assertPosted(
    await send('beeminder', JSON.stringify(goal(5)), { contentType: 'application/x-www-form-urlencoded' }),
    'beekeeper',
    'You are going to derail from goal **run** in **5.6 hours**. You need **+2 in 3 days** to avoid derailing.\n* Pledge: **$5** :worried:',
  );
  const relieved = await send('beeminder', JSON.stringify(goal(0)));
  assert.match(relieved.newest!.content, /\* Pledge: \*\*\$0\*\* :relieved:$/);
});

test('delighted: a promoter from a score of 7, feedback below', async () => {
  const response = (score: number) => JSON.stringify({ event_data: { score, comment: 'Nice app', person: { email: 'pat@example.com' } } });
  assertPosted(await send('delighted', response(9)), 'Survey response', 'Kudos! You have a new promoter. Score of 9/10 from pat@example.com:\n``` quote\nNice app\n```');
  assertPosted(await send('delighted', response(6)), 'Survey response', 'Great! You have new feedback. Score of 6/10 from pat@example.com:\n``` quote\nNice app\n```');
});

test('gosquared: traffic spikes and public chat messages; private chats are not posted, others refused as unsupported', async () => {
  assertPosted(
    await send('gosquared', JSON.stringify({ concurrents: 42, siteDetails: { domain: 'shop.example', acct: 'GSN-1' } })),
    'GoSquared - shop.example',
    '[shop.example](https://www.gosquared.com/now/GSN-1) has 42 visitors online.',
  );
  const chat = (isPrivate: boolean) => JSON.stringify({ message: { private: isPrivate, content: 'Hi there', session: { title: 'Pricing' } }, person: { status: 'online', _anon: { name: 'Blue Fox' } } });
  assertPosted(await send('gosquared', chat(false)), 'Live chat session - Pricing', 'The online **Blue Fox** messaged:\n``` quote\nHi there\n```');
  const hidden = await send('gosquared', chat(true));
  assert.deepEqual([hidden.status, hidden.body.result, hidden.newest?.subject], [200, 'success', 'Live chat session - Pricing']);
  const unknown = await send('gosquared', JSON.stringify({ something: 1 }));
  assert.deepEqual([unknown.status, unknown.body.code], [200, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE']);
  assert.equal(unknown.body.msg, "The 'unknown_event' event isn't currently supported by the GoSquared webhook; ignoring");
});

test('greenhouse: a candidate event with the role, emails and attachments; a ping posts nothing', async () => {
  const candidate = {
    id: 77, first_name: 'Kim', last_name: 'Lee',
    email_addresses: [{ value: 'kim@example.com', type: 'personal' }],
    attachments: [{ filename: 'cv.pdf', url: 'https://gh.example/cv', type: 'resume' }, { filename: 'x', url: null, type: 'other' }],
  };
  const event = (action: string) => JSON.stringify({ action, payload: { application: { candidate, jobs: [{ name: 'Baker' }] }, candidate } });
  assertPosted(
    await send('greenhouse', event('candidate_stage_change')),
    'Candidate Stage Change - 77',
    'Candidate Stage Change Kim Lee (ID: 77), applying for:\n* **Role**: Baker\n* **Emails**: kim@example.com (Personal)\n* **Attachments**: [Resume](https://gh.example/cv)',
  );
  const ping = await send('greenhouse', JSON.stringify({ action: 'ping' }));
  assert.deepEqual([ping.status, ping.body.result, ping.newest?.subject], [200, 'success', 'Candidate Stage Change - 77']);
});

test("zendesk: the trigger's message in the ticket's topic, cut at 60 characters; parameters are required", async () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const formType = { contentType: 'application/x-www-form-urlencoded', basic: true };
  assertPosted(await send('zendesk', form({ ticket_title: 'Printer jam', ticket_id: '4', message: 'New comment:\n> fixed' }), formType), '#4: Printer jam', 'New comment:\n> fixed');
  assertPosted(await send('zendesk', form({ ticket_title: `Long ${'!'.repeat(80)}`, ticket_id: '5', message: 'x' }), formType), `#5: Long ${'!'.repeat(48)}...`, 'x');
  const missing = await send('zendesk', form({ ticket_id: '6', message: 'x' }), formType);
  assert.deepEqual([missing.status, missing.body.msg], [400, "Missing 'ticket_title' argument"]);
});

test("freshdesk: a ticket's HTML description in Markdown, wrapped at 78 characters, its images linked by file name", async () => {
  const description =
    '<div>The printer on the third floor prints every page twice, and <b>only</b> on Mondays; see <a href="https://wiki.example/printers">the wiki</a>.</div>\n' +
    '<div><br></div>\n<div><img src="https://cdn.example/files/42/scan.png?1700000000"></div>';
  const ticket = {
    freshdesk_webhook: {
      triggered_event: '{ticket_action:created}', ticket_id: '7', ticket_url: 'https://help.example/tickets/7', ticket_subject: 'Printer',
      ticket_description: description, ticket_type: 'Problem', ticket_priority: 'Low', ticket_status: 'Open', requester_name: 'Pat', requester_email: 'pat@example.com',
    },
  };
  assertPosted(
    await send('freshdesk', JSON.stringify(ticket), { basic: true }),
    '#7: Printer',
    'Pat <pat@example.com> created [ticket #7](https://help.example/tickets/7):\n\n``` quote\n' +
      'The printer on the third floor prints every page twice, and **only** on\nMondays; see [the wiki](https://wiki.example/printers).\n\n  \n\n' +
      '[scan.png](https://cdn.example/files/42/scan.png)\n```\n\n* **Type**: Problem\n* **Priority**: Low\n* **Status**: Open',
  );
});
