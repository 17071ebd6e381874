import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { ManualClock } from './support/server';
import { isFocused, messageRow, waitUntil, webSuite } from './support/web';

/**
 * Scheduling a message from the send button's menu, the Scheduled messages view (edit,
 * reschedule, delete), and the message reaching another person when the server sends it.
 * The server's clock is moved by hand to the time the browser chose.
 */

const clock = new ManualClock(Date.now());
const suite = webSuite({ config: { gravatar: false }, clock });

function messageBox(page: Page) {
  return page.getByRole('textbox', { name: 'Message', exact: true });
}

interface Scheduled {
  scheduled_message_id: number;
  content: string;
  topic?: string;
  to: number | number[];
  scheduled_delivery_timestamp: number;
}

test('a message scheduled from the send button is listed, edited, rescheduled, and reaches the other person on time', { skip: NO_CHROMIUM }, async () => {
  const writer = await suite.server.createUser('Sched Writer');
  const reader = await suite.server.createUser('Sched Reader');
  const name = uniqueName('later');
  const channel = await createChannel(suite.server.owner, { principals: [writer.credentials.email, reader.credentials.email] }, name);
  await reader.post('/messages', { type: 'stream', to: channel.id, topic: 'plans', content: 'What about tomorrow?' });
  const stored = async () => (await writer.get('/scheduled_messages', {})).body.scheduled_messages as Scheduled[];

  const web = await suite.open(writer.credentials.email, `#narrow/channel/${channel.id}/topic/plans`);
  const page = web.page;
  const readerWeb = await suite.open(reader.credentials.email, `#narrow/channel/${channel.id}/topic/plans`, { viewport: { width: 390, height: 844 } });
  await messageRow(readerWeb.page, 'What about tomorrow?').waitFor();

  // The send button's menu offers Zulip's times; the first schedules the message.
  await page.getByRole('button', { name: /^New message/ }).click();
  await messageBox(page).fill('See you at the station.');
  const scheduleButton = page.getByRole('button', { name: 'Schedule message' });
  const menu = page.getByRole('menu', { name: 'Schedule message' });
  // The menu takes the focus; Escape closes it and gives the focus back, as does a press outside.
  await scheduleButton.click();
  await waitUntil(() => isFocused(menu.getByRole('menuitem').first()), 'the first time has the focus');
  await page.keyboard.press('ArrowDown');
  await waitUntil(() => isFocused(menu.getByRole('menuitem').nth(1)), 'the next time has the focus');
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  await waitUntil(() => isFocused(scheduleButton), 'the focus is back on the schedule button');
  await scheduleButton.click();
  await page.getByRole('heading', { level: 1 }).click();
  await menu.waitFor({ state: 'detached' });
  await scheduleButton.click();
  const first = menu.getByRole('menuitem').first();
  const firstLabel = await first.innerText();
  assert.match(firstLabel, /^(Today|Tomorrow) at \d{1,2}:00 [AP]M$/);
  await first.click();
  await page.getByRole('status').getByText(`Your message is scheduled for ${firstLabel}.`).waitFor();
  // Scheduled, it leaves the compose box, which closes.
  await messageBox(page).waitFor({ state: 'detached' });
  await waitUntil(async () => (await stored()).length === 1, 'the message is scheduled');
  const [scheduled] = await stored();
  assert.deepEqual([scheduled.content, scheduled.topic, scheduled.to], ['See you at the station.', 'plans', channel.id]);
  const when = new Date(scheduled.scheduled_delivery_timestamp * 1000);
  assert.equal(when.getMinutes(), 0);
  assert.ok([9, 16].includes(when.getHours()), String(when));

  // Listed in the sidebar like the drafts, and in its own view.
  const sidebar = page.getByRole('navigation', { name: 'Views, channels and direct messages' });
  await sidebar.getByRole('link', { name: 'Scheduled messages 1 scheduled' }).click();
  const list = page.getByRole('region', { name: 'Scheduled messages' });
  await list.getByText('See you at the station.').waitFor();
  const to = `#${name} › plans`;
  await list.getByText(firstLabel).waitFor();

  // Edited in the compose box, in its conversation, and scheduled again for a time of one's own.
  await list.getByRole('button', { name: `Edit the message to ${to} scheduled for ${firstLabel}` }).click();
  await waitUntil(async () => (await messageBox(page).inputValue()) === 'See you at the station.', 'the scheduled message is in the compose box');
  assert.ok(page.url().endsWith('/topic/plans'), page.url());
  await messageBox(page).fill('See you at the station, platform 2.');
  await page.getByRole('button', { name: 'Schedule message' }).click();
  await menu.getByRole('menuitem', { name: 'Custom time' }).click();
  const later = new Date(Date.now() + 3 * 86_400_000);
  later.setHours(10, 30, 0, 0);
  const local = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}T${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  await page.getByLabel('Send at').fill(local(later));
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await waitUntil(async () => (await stored())[0]?.content === 'See you at the station, platform 2.', 'the scheduled message is changed');
  const [edited] = await stored();
  assert.equal(edited.scheduled_message_id, scheduled.scheduled_message_id);
  assert.equal(edited.scheduled_delivery_timestamp, later.getTime() / 1000);
  assert.equal((await stored()).length, 1);

  // Rescheduled from the list to a suggested time.
  await sidebar.getByRole('link', { name: /^Scheduled messages/ }).click();
  await list.getByText('platform 2').waitFor();
  await list.getByRole('button', { name: /^Reschedule the message/ }).click();
  await list.getByRole('group', { name: /^New time for the message/ }).getByRole('button', { name: firstLabel }).click();
  await waitUntil(async () => (await stored())[0]?.scheduled_delivery_timestamp === scheduled.scheduled_delivery_timestamp, 'the message is rescheduled');
  await list.getByText(firstLabel).waitFor();

  // A second one, deleted from the list.
  await page.goto(`${suite.server.url}/#narrow/channel/${channel.id}/topic/plans`);
  await page.getByRole('button', { name: /^New message/ }).click();
  await messageBox(page).fill('Never mind this one.');
  await page.getByRole('button', { name: 'Schedule message' }).click();
  await menu.getByRole('menuitem').first().click();
  await waitUntil(async () => (await stored()).length === 2, 'the second message is scheduled');
  await sidebar.getByRole('link', { name: 'Scheduled messages 2 scheduled' }).click();
  await list.getByRole('button', { name: /^Delete the message/ }).nth(1).click();
  await waitUntil(async () => (await stored()).length === 1, 'the second message is deleted');
  await list.getByText('Never mind this one.').waitFor({ state: 'detached' });
  // One scheduled from another client (the API) shows up at once, and goes when deleted there.
  const fromApi = await writer.post('/scheduled_messages', { type: 'direct', to: JSON.stringify([reader.userId]), content: 'Sent from my phone', scheduled_delivery_timestamp: scheduled.scheduled_delivery_timestamp + 3600 });
  assert.equal(fromApi.status, 200, JSON.stringify(fromApi.body));
  await list.getByRole('button', { name: /^Edit the message to You and Sched Reader/ }).waitFor();
  await writer.delete(`/scheduled_messages/${fromApi.body.scheduled_message_id}`);
  await list.getByText('Sent from my phone').waitFor({ state: 'detached' });

  // At its time the server sends it: the reader sees it arrive, the writer's list empties.
  clock.advance(scheduled.scheduled_delivery_timestamp * 1000 - clock.now() + 1000);
  await messageRow(readerWeb.page, 'platform 2').waitFor();
  await list.getByText('No scheduled messages.', { exact: false }).waitFor();
  await sidebar.getByRole('link', { name: /^Scheduled messages/ }).waitFor({ state: 'detached' });
  assert.deepEqual(await stored(), []);
  assert.deepEqual(web.problems, []);
  assert.deepEqual(readerWeb.problems, []);
});

test('"Remind me about this" sets a reminder with a note; it is listed under Reminders, can be deleted, and comes as a direct message on time', { skip: NO_CHROMIUM }, async () => {
  const person = await suite.server.createUser('Remind Person');
  const other = await suite.server.createUser('Remind Other');
  const channel = await createChannel(suite.server.owner, { principals: [person.credentials.email, other.credentials.email] }, uniqueName('remind'));
  await other.post('/messages', { type: 'stream', to: channel.id, topic: 'trip', content: 'The ferry leaves at noon.' });
  await other.post('/messages', { type: 'stream', to: channel.id, topic: 'trip', content: 'Bring warm clothes.' });
  const stored = async () => (await person.get('/reminders', {})).body.reminders as Array<{ reminder_id: number; content: string; scheduled_delivery_timestamp: number }>;
  const web = await suite.open(person.credentials.email, `#narrow/channel/${channel.id}/topic/trip`);
  const page = web.page;

  const remind = async (text: string, how: (dialog: ReturnType<Page['getByRole']>) => Promise<void>) => {
    const row = messageRow(page, text);
    await row.hover();
    await row.getByRole('button', { name: 'More message actions' }).click();
    await page.getByRole('menu', { name: 'More message actions' }).getByRole('menuitem', { name: 'Remind me about this' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remind me about this' });
    await how(dialog);
    await dialog.waitFor({ state: 'detached' });
  };
  // Times of one's own, counted from the server's clock (moved ahead by the test before): one
  // with a note two hours ahead, one without an hour ahead. Zulip's suggested times are offered.
  const localField = (ms: number) => {
    const time = new Date(ms);
    return new Date(time.getTime() - time.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  };
  await remind('The ferry leaves at noon.', async (dialog) => {
    // The dialog is loaded on first use: wait for it before counting what it offers.
    const suggested = dialog.getByRole('group', { name: 'When' }).getByRole('button');
    await suggested.first().waitFor();
    assert.ok((await suggested.count()) >= 2, 'suggested times');
    await dialog.getByLabel('Note (optional)').fill('Buy tickets first');
    await dialog.getByLabel('Remind me at').fill(localField(clock.now() + 2 * 3600_000));
    await dialog.getByRole('button', { name: 'Set reminder' }).click();
  });
  await page.getByText(/^You will be reminded /).waitFor();
  const local = localField(clock.now() + 3600_000);
  await remind('Bring warm clothes.', async (dialog) => {
    await dialog.getByLabel('Remind me at').fill(local);
    await dialog.getByRole('button', { name: 'Set reminder' }).click();
  });
  await waitUntil(async () => (await stored()).length === 2, 'two reminders are stored');
  const all = await stored();
  const withNote = all.find((r) => /Buy tickets first/.test(r.content))!;
  const ownTime = all.find((r) => r !== withNote)!;
  assert.match(withNote.content, /The ferry leaves at noon\./);
  assert.equal(ownTime.scheduled_delivery_timestamp, Math.floor(new Date(local).getTime() / 1000));

  // Listed under Reminders in Scheduled messages; the later one deleted there.
  await page.getByRole('navigation', { name: 'Views, channels and direct messages' }).getByRole('link', { name: /^Scheduled messages/ }).click();
  const list = page.getByRole('region', { name: 'Reminders' });
  await list.getByText('Buy tickets first').waitFor();
  await list.getByText('Bring warm clothes.').waitFor();
  const noteRow = list.getByRole('listitem').filter({ hasText: 'Buy tickets first' });
  await noteRow.getByRole('button', { name: /^Delete the reminder for / }).click();
  await list.getByText('Buy tickets first').waitFor({ state: 'detached' });
  assert.deepEqual((await stored()).map((r) => r.reminder_id), [ownTime.reminder_id]);

  // On time, Notification Bot's direct message comes, and the reminder leaves the list.
  clock.advance(3600_000 + 1000);
  await list.waitFor({ state: 'detached' });
  await waitUntil(async () => {
    const dms = await person.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]), apply_markdown: false });
    return /Bring warm clothes\./.test(dms.body.messages[0]?.content ?? '');
  }, 'the reminder is delivered');
  assert.deepEqual(web.problems, []);
});
