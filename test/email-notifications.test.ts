import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { backgroundSettled } from '../lib/push/background';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { MailCatcher } from './support/mail';
import { sendMessage } from './support/messages';
import { ManualClock, TestServer } from './support/server';

/**
 * Missed-message emails (see docs/email.md): who gets one for what, after the person's
 * batching period, one email per conversation, only for what is still unread, and the
 * unsubscribe link that works without a login. The clock is moved by hand.
 */

const catcher = new MailCatcher();
const clock = new ManualClock();
let server: TestServer;

before(async () => {
  const smtp = await catcher.start();
  server = await TestServer.start({ clock, config: { smtp, realmName: 'Physics 101' } });
});
after(async () => {
  await server.close();
  await catcher.close();
});

type Person = Client & { userId: number };

/** A new person, with their email address, who has no client open (away, as Zulip counts it). */
async function person(name: string): Promise<Person & { email: string }> {
  const client = await server.createUser(name);
  return Object.assign(client, { email: client.credentials.email });
}

async function changeSettings(client: Client, settings: Record<string, unknown>): Promise<void> {
  const response = await client.patch('/settings', settings);
  assert.equal(response.status, 200, JSON.stringify(response.body));
}

/** Lets the mail server receive what was sent, then says how many mails went to the address. */
async function settledCount(address: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return catcher.countTo(address);
}

/** The mails to the address after the first `skip`, once `count` of them arrived. */
async function newMails(address: string, skip: number, count: number): Promise<ParsedMail[]> {
  await catcher.waitForCount(address, skip + count);
  return catcher.received.filter((r) => r.to.some((to) => to.toLowerCase() === address.toLowerCase())).slice(skip).map((r) => r.mail);
}

const SECOND = 1000;

/** A channel both people are in. */
async function sharedChannel(owner: Person, other: Person) {
  const channel = await createChannel(owner, { principals: [owner.userId, other.userId] });
  return channel;
}

function unsubscribeLinkIn(mail: ParsedMail): string {
  const match = /(http:\/\/\S+\/accounts\/unsubscribe\/missed_messages\/[a-z2-7]{24})/.exec(mail.text ?? '');
  assert.ok(match, `an unsubscribe link in: ${mail.text}`);
  return match[1];
}

describe('missed-message emails', () => {
  test('a direct message is mailed after the batching period (two minutes by default), with its text, a link to the conversation and an unsubscribe link', async () => {
    const alice = await person('Alice Aalto');
    const bob = await person('Bob Berg');
    await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'Are you coming to the **lab** today?' });
    await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'Bring the notes.' });
    clock.advance(119 * SECOND);
    assert.equal(await settledCount(bob.email), 0, 'nothing before the batching period is over');
    clock.advance(2 * SECOND);
    const [mail] = await newMails(bob.email, 0, 1);
    assert.equal(mail.subject, 'Direct messages from Alice Aalto');
    assert.equal(mail.from?.value[0].name, 'Physics 101 notifications');
    assert.match(mail.text ?? '', /Alice Aalto:\n> Are you coming to the \*\*lab\*\* today\?/);
    assert.match(mail.text ?? '', /> Bring the notes\./, 'both messages, in one email');
    assert.match(String(mail.html), /<strong>lab<\/strong>/, 'the HTML part shows the rendered message');
    assert.ok((mail.text ?? '').includes(`${server.url}/#narrow/dm/${alice.userId}-Alice-Aalto`), 'a link to the conversation');
    const listUnsubscribe = mail.headerLines.find((header) => header.key === 'list-unsubscribe')?.line;
    assert.match(listUnsubscribe ?? '', /<http:\/\/\S+\/accounts\/unsubscribe\/missed_messages\/[a-z2-7]{24}>/);
    unsubscribeLinkIn(mail);
    assert.equal(await settledCount(alice.email), 0, 'the sender gets nothing');
  });

  test("Welcome Bot's direct message to someone who joins is not mailed: it is meant to be read in the app", async () => {
    const newcomer = await person('Nell Newcomer');
    const welcome = (await newcomer.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }] })).body.messages;
    assert.equal(welcome.length, 1, 'Welcome Bot wrote');
    assert.equal(welcome[0].flags.includes('read'), false, 'and it is unread');
    clock.advance(10 * 60 * SECOND);
    assert.equal(await settledCount(newcomer.email), 0);
  });

  test('messages read before the batch falls due are not mailed', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const id = await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'Seen already' });
    clock.advance(60 * SECOND);
    assert.equal((await bob.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' })).status, 200);
    clock.advance(61 * SECOND);
    assert.equal(await settledCount(bob.email), 0);
  });

  test('a batch holds everything that came in the period and sends one email per conversation, oldest conversation first', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const carol = await person('Carol');
    const channel = await sharedChannel(alice, bob);
    await changeSettings(bob, { email_notifications_batching_period_seconds: 10 });
    await sendMessage(alice, { type: 'stream', to: channel.id, topic: 'Lunch', content: `@**Bob|${bob.userId}** pizza?` });
    clock.advance(5 * SECOND);
    await sendMessage(carol, { type: 'private', to: [bob.userId, alice.userId], content: 'Group hello' });
    await sendMessage(alice, { type: 'stream', to: channel.id, topic: 'LUNCH', content: `@**Bob|${bob.userId}** or pasta?` });
    clock.advance(6 * SECOND);
    const mails = await newMails(bob.email, 0, 2);
    assert.equal(mails[0].subject, 'Group direct messages with Alice, Carol');
    assert.match(mails[0].text ?? '', /Carol:\n> Group hello/);
    assert.match(mails[0].text ?? '', new RegExp(`#narrow/dm/${alice.userId},${carol.userId}-group`));
    assert.equal(mails[1].subject, `#${channel.name} > Lunch`, 'a topic whatever its case is one conversation');
    assert.match(mails[1].text ?? '', /You were mentioned in/);
    assert.match(mails[1].text ?? '', /pizza\?[\s\S]*or pasta\?/);
    assert.ok((mails[1].text ?? '').includes(`#narrow/channel/${channel.id}-`), 'a link to the topic');
    assert.equal(await settledCount(bob.email), 2, 'nothing more');
  });

  test('channel messages mail only as the settings say: mentions, alert words, followed topics, channels with email notifications on, @all where allowed', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const channel = await sharedChannel(alice, bob);
    const send = (topic: string, content: string) => sendMessage(alice, { type: 'stream', to: channel.id, topic, content });
    const batch = async () => {
      clock.advance(121 * SECOND);
      return settledCount(bob.email);
    };

    await send('plain', 'Nothing special');
    assert.equal(await batch(), 0, 'an ordinary channel message sends no email by default');

    assert.equal((await bob.post('/users/me/alert_words', { alert_words: ['spectrometer'] })).status, 200);
    await send('alerts', 'The spectrometer is free');
    await batch();
    const [alert] = await newMails(bob.email, 0, 1);
    assert.match(alert.text ?? '', /one of your alert words/);

    assert.equal((await bob.post('/user_topics', { stream_id: channel.id, topic: 'followed', visibility_policy: 3 })).status, 200);
    await send('followed', 'News in a followed topic');
    await batch();
    const [followed] = await newMails(bob.email, 1, 1);
    assert.match(followed.text ?? '', /a topic you follow/);
    await changeSettings(bob, { enable_followed_topic_email_notifications: false });
    await send('followed', 'More news');
    assert.equal(await batch(), 2, 'followed topics mail only with enable_followed_topic_email_notifications');

    await changeSettings(bob, { wildcard_mentions_notify: false });
    await send('wildcards', '@**all** meeting at noon');
    assert.equal(await batch(), 2, '@all does not mail when wildcard mentions do not notify');
    await changeSettings(bob, { wildcard_mentions_notify: true });
    await send('wildcards', '@**all** meeting moved');
    await batch();
    const [wildcard] = await newMails(bob.email, 2, 1);
    assert.match(wildcard.text ?? '', /Everyone was mentioned/);

    const property = await bob.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: channel.id, property: 'email_notifications', value: true }],
    });
    assert.equal(property.status, 200, JSON.stringify(property.body));
    await send('plain', 'Now every message mails');
    await batch();
    const [everything] = await newMails(bob.email, 3, 1);
    assert.match(everything.text ?? '', /a channel you get email notifications for/);
  });

  test('a mention comes with the topic\'s messages of the 15 minutes before it, as context', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const channel = await sharedChannel(alice, bob);
    const send = (content: string) => sendMessage(alice, { type: 'stream', to: channel.id, topic: 'plans', content });
    await send('Too old to matter');
    clock.advance(16 * 60 * SECOND);
    await send('We need a room');
    await send(`@**Bob|${bob.userId}** can you book one?`);
    clock.advance(121 * SECOND);
    const [mail] = await newMails(bob.email, 0, 1);
    assert.match(mail.text ?? '', /We need a room[\s\S]*can you book one\?/);
    assert.doesNotMatch(mail.text ?? '', /Too old to matter/);
  });

  test('a group mention names the group; mentions of a muted channel still mail, ordinary messages of it do not', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const channel = await sharedChannel(alice, bob);
    const group = await server.owner.post('/user_groups/create', { name: 'optics', description: 'Optics people', members: [bob.userId, alice.userId] });
    assert.equal(group.status, 200, JSON.stringify(group.body));
    await sendMessage(alice, { type: 'stream', to: channel.id, topic: 'lenses', content: '@*optics* the lenses arrived' });
    clock.advance(121 * SECOND);
    const [mail] = await newMails(bob.email, 0, 1);
    assert.match(mail.text ?? '', /@optics was mentioned in/);

    const muted = await bob.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: channel.id, property: 'is_muted', value: true }, { stream_id: channel.id, property: 'email_notifications', value: true }],
    });
    assert.equal(muted.status, 200, JSON.stringify(muted.body));
    // In another topic: a mention's email shows the earlier messages of its own topic as context.
    await sendMessage(alice, { type: 'stream', to: channel.id, topic: 'gossip', content: 'quiet message' });
    await sendMessage(alice, { type: 'stream', to: channel.id, topic: 'lenses', content: `@**Bob|${bob.userId}** loud message` });
    clock.advance(121 * SECOND);
    const [mention] = await newMails(bob.email, 1, 1);
    assert.match(mention.text ?? '', /loud message/);
    assert.doesNotMatch(mention.text ?? '', /quiet message/);
    assert.equal(await settledCount(bob.email), 2, 'and no email for the muted channel\'s other topic');
  });

  test('enable_offline_email_notifications off stops them; message_content_in_email_notifications off leaves the text out; the organization name goes into the subject when asked', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    await changeSettings(bob, { enable_offline_email_notifications: false });
    await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'Not mailed' });
    clock.advance(121 * SECOND);
    assert.equal(await settledCount(bob.email), 0);

    await changeSettings(bob, { enable_offline_email_notifications: true, message_content_in_email_notifications: false, realm_name_in_email_notifications_policy: 2 });
    await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'A secret plan' });
    clock.advance(121 * SECOND);
    const [mail] = await newMails(bob.email, 0, 1);
    assert.equal(mail.subject, 'Direct messages from Alice [Physics 101]');
    assert.doesNotMatch(`${mail.text}${mail.html}`, /secret plan/);
    assert.match(mail.text ?? '', /you turned off message content/);
  });

  test('someone present (a client open that reported activity within 140 seconds) gets no email', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const queue = await bob.post('/register', { event_types: ['message'] });
    assert.equal(queue.status, 200);
    // The open client polls (a queue never polled is given up after a minute, and what it held then mailed).
    assert.equal((await bob.get('/events', { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true })).status, 200);
    assert.equal((await bob.post('/users/me/presence', { status: 'active' })).status, 200);
    await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'You are here' });
    clock.advance(121 * SECOND);
    assert.equal(await settledCount(bob.email), 0);
    // Later, with no activity for over 140 seconds, the same open client counts as away.
    clock.advance(20 * SECOND);
    await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'Still there?' });
    clock.advance(121 * SECOND);
    const [mail] = await newMails(bob.email, 0, 1);
    assert.match(mail.text ?? '', /Still there\?/);
    assert.doesNotMatch(mail.text ?? '', /You are here/);
  });

  test("what an open client never fetched is mailed once the person's last queue goes, but nothing twice (Zulip's missedmessage hook)", async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const channel = await sharedChannel(alice, bob);
    const group = await server.owner.post('/user_groups/create', { name: 'acoustics', description: 'Sound people', members: [bob.userId] });
    assert.equal(group.status, 200, JSON.stringify(group.body));
    const registered = await bob.post('/register', { event_types: ['message'] });
    assert.equal(registered.status, 200);
    assert.equal((await bob.post('/users/me/presence', { status: 'active' })).status, 200);
    await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'While you were here' });
    await sendMessage(alice, { type: 'stream', to: channel.id, topic: 'studio', content: '@*acoustics* the speakers hum' });
    clock.advance(121 * SECOND);
    assert.equal(await settledCount(bob.email), 0, 'held back while the client is open and active');
    // Idle for a while (the client stopped reporting activity): mailed at once, as before.
    clock.advance(20 * SECOND);
    await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'Mailed already' });
    clock.advance(121 * SECOND);
    const [first] = await newMails(bob.email, 0, 1);
    assert.match(first.text ?? '', /Mailed already/);

    // The client never comes back: its queue is collected, and what it held is mailed.
    server.stoa.queues.collectGarbage();
    assert.equal(server.stoa.queues.find(registered.body.queue_id), undefined, 'the queue is gone');
    await backgroundSettled(server.stoa);
    clock.advance(121 * SECOND);
    const [direct, mention] = await newMails(bob.email, 1, 2);
    assert.match(direct.text ?? '', /While you were here/);
    assert.doesNotMatch(direct.text ?? '', /Mailed already/, 'a message already mailed is not mailed again');
    assert.match(mention.text ?? '', /the speakers hum/);
    assert.match(mention.text ?? '', /@acoustics was mentioned in/);
    assert.equal(await settledCount(bob.email), 3);
  });

  test('the unsubscribe link works without a login, by GET or by a mail program\'s one-click POST, and turns them off', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'Hello' });
    clock.advance(121 * SECOND);
    const [mail] = await newMails(bob.email, 0, 1);
    const link = unsubscribeLinkIn(mail);
    const page = await fetch(link);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /no longer get emails about messages you missed/);
    const state = await bob.post('/register', { fetch_event_types: ['user_settings'] });
    assert.equal(state.body.user_settings.enable_offline_email_notifications, false);

    await changeSettings(bob, { enable_offline_email_notifications: true });
    const oneClick = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    assert.equal(oneClick.status, 200);
    assert.equal((await bob.post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings.enable_offline_email_notifications, false);

    for (const bad of [link.replace(/[a-z2-7]{24}$/, 'a'.repeat(24)), link.replace('missed_messages', 'digest'), `${server.url}/accounts/unsubscribe/missed_messages/%00`]) {
      const refused = await fetch(bad);
      assert.equal(refused.status, 404, bad);
      assert.match(await refused.text(), /not valid/);
    }
  });

  test('waiting emails survive a restart and go out when due', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'Kept across a restart' });
    clock.advance(30 * SECOND);
    await server.restart();
    assert.equal(await settledCount(bob.email), 0);
    clock.advance(91 * SECOND);
    const [mail] = await newMails(bob.email, 0, 1);
    assert.match(mail.text ?? '', /Kept across a restart/);
    assert.ok((mail.text ?? '').includes(server.url), 'links name the server as it runs now');
  });

  test('a deleted message is not mailed', async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const id = await sendMessage(alice, { type: 'private', to: [bob.userId], content: 'Oops' });
    const deleted = await alice.delete(`/messages/${id}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    clock.advance(121 * SECOND);
    assert.equal(await settledCount(bob.email), 0);
  });
});
