import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { OWNER_EMAIL, OWNER_PASSWORD } from './support/server';
import { plainMemberRow } from './support/user-rows';
import { isFocused, messageRow, waitUntil, webSuite } from './support/web';

/**
 * People in the web client: the user card (from a sender, a mention and the people list) with
 * its actions, the full profile, statuses and invisible mode, and muted users.
 */

const suite = webSuite();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Saves a screenshot into /tmp for a person to look at. */
async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/web-people-${name}.png` });
}

/** Two people in a channel of their own; `writer` has sent one message mentioning `reader`, and filled in a profile. */
async function twoPeople() {
  const readerName = uniqueName('Desdemona');
  const writerName = uniqueName('Othello');
  const reader = await suite.server.createUser(readerName);
  const writer = await suite.server.createUser(writerName);
  const channel = uniqueName('Cyprus');
  const { id } = await createChannel(suite.server.owner, { principals: [reader.credentials.email, writer.credentials.email] }, channel);
  const sent = await writer.post('/messages', { type: 'stream', to: id, topic: 'Harbour', content: `Landing now, @**${readerName}|${reader.userId}**` });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  return { reader, writer, readerName, writerName, channelId: id, messageId: sent.body.id as number };
}

/** A custom profile field shown on cards, and one shown only on the full profile. */
async function profileFields(): Promise<{ summary: number; full: number }> {
  const make = async (params: Record<string, unknown>) => {
    const response = await suite.server.owner.post('/realm/profile_fields', params);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body.id as number;
  };
  const summary = await make({ name: uniqueName('Ship'), field_type: 1, display_in_profile_summary: true });
  const full = await make({ name: uniqueName('Birthday'), field_type: 4 });
  return { summary, full };
}

/** The people list's button opening a person's card. */
const peopleListCard = (page: Page, name: string) => page.getByRole('complementary', { name: 'People' }).getByRole('button', { name: `User card of ${name}`, exact: true });

/** Whom the person has muted, as the server tells their next client. */
async function mutedIds(client: { post(path: string, params: Record<string, unknown>): Promise<{ body: { muted_users: Array<{ id: number }> } }> }): Promise<number[]> {
  return (await client.post('/register', { fetch_event_types: ['muted_users'] })).body.muted_users.map((m) => m.id);
}

const card = (page: Page) => page.getByRole('dialog', { name: /./ }).filter({ has: page.locator('#user-card-name') });

for (const viewport of [DESKTOP, PHONE]) {
  const size = `${viewport.width}x${viewport.height}`;

  test(`at ${size} a sender's name opens their card with role, status, local time, email and profile fields; Escape returns the focus`, { skip: NO_CHROMIUM }, async () => {
    const { reader, writer, writerName, channelId } = await twoPeople();
    const fields = await profileFields();
    await writer.patch('/settings', { timezone: 'Asia/Tokyo' });
    await writer.patch('/users/me/profile_data', { data: [{ id: fields.summary, value: 'The Moor' }, { id: fields.full, value: '1990-02-28' }] });
    await writer.post('/users/me/status', { status_text: 'At sea', emoji_name: 'palm_tree' });
    const web = await suite.open(reader.credentials.email, `#narrow/channel/${channelId}`, { viewport });
    const { page } = web;
    const row = messageRow(page, 'Landing now');
    const name = row.getByRole('button', { name: writerName, exact: true });
    await name.click();
    const opened = card(page);
    await opened.waitFor();
    await snap(page, `card-${size}`);
    assert.equal(await opened.locator('#user-card-name').innerText(), writerName);
    const details = await opened.locator('.profile-details').innerText();
    assert.match(details, /Role\s+Member/);
    assert.match(details, /The Moor/, 'the field shown in the summary');
    assert.doesNotMatch(details, /1990/, 'a field not in the summary waits for the full profile');
    // Tokyo's time now, or a minute ago should the minute have turned since the card was drawn.
    const tokyo = (at: number) => new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Tokyo' }).format(at);
    const shown = /Local time\s+(.+)/.exec(details)?.[1].trim();
    assert.ok(shown === tokyo(Date.now()) || shown === tokyo(Date.now() - 60_000), `Tokyo's time, not ${shown}`);
    assert.match(await opened.innerText(), /🌴\s*At sea/);
    for (const action of ['View full profile', 'Send direct message', 'View messages sent', 'Mute user']) {
      await opened.getByRole('button', { name: action }).waitFor();
    }
    assert.equal(await opened.getByRole('combobox', { name: 'Change role' }).count(), 0, 'no administration for a member');
    if (viewport === PHONE) {
      const box = (await opened.boundingBox())!;
      assert.equal(Math.round(box.x), 0, 'a sheet across the screen');
      assert.ok(Math.abs(box.y + box.height - PHONE.height) < 2, 'at the bottom of the screen');
    }
    await page.keyboard.press('Escape');
    await opened.waitFor({ state: 'detached' });
    await waitUntil(() => isFocused(name), 'the focus is back on the name');

    // A field changed meanwhile shows on the next look, without reloading.
    await writer.patch('/users/me/profile_data', { data: [{ id: fields.summary, value: 'The General' }] });
    await name.click();
    await waitUntil(async () => (await card(page).locator('.profile-details').innerText()).includes('The General'), 'the card shows the new value');
    await page.keyboard.press('Escape');
    await card(page).waitFor({ state: 'detached' });

    // The full profile shows every field.
    await name.click();
    await card(page).getByRole('button', { name: 'View full profile' }).click();
    const profile = page.getByRole('dialog', { name: writerName });
    await profile.waitFor();
    await snap(page, `profile-${size}`);
    const all = await profile.locator('.profile-details').innerText();
    assert.match(all, /The General/);
    assert.match(all, /1990/);
    assert.match(all, /Asia\/Tokyo/);
    await profile.getByRole('button', { name: 'Close' }).click();
    await profile.waitFor({ state: 'detached' });
    assert.deepEqual(web.problems, []);
  });
}

for (const viewport of [DESKTOP, PHONE]) {
  const size = `${viewport.width}x${viewport.height}`;

  test(`at ${size} a mention and the people list open cards too, whose actions go to the direct messages and the messages sent`, { skip: NO_CHROMIUM }, async () => {
    const { reader, readerName, writerName, channelId } = await twoPeople();
    const web = await suite.open(reader.credentials.email, `#narrow/channel/${channelId}`, { viewport });
    const { page } = web;
    // A mention, by keyboard: it is a button in the message.
    const mention = messageRow(page, 'Landing now').getByRole('button', { name: `@${readerName}` });
    await mention.focus();
    await page.keyboard.press('Enter');
    await card(page).waitFor();
    assert.match(await card(page).locator('#user-card-name').innerText(), new RegExp(`${readerName}\\s*\\(you\\)`));
    await card(page).getByRole('button', { name: 'Set a status' }).waitFor();
    await page.keyboard.press('Escape');
    await card(page).waitFor({ state: 'detached' });
    await waitUntil(() => isFocused(mention), 'the focus is back on the mention');

    // The people list: the card's button beside a person.
    if (viewport === PHONE) await page.getByRole('button', { name: 'Show people' }).click();
    await peopleListCard(page, writerName).click();
    await card(page).getByRole('button', { name: 'Send direct message' }).click();
    await card(page).waitFor({ state: 'detached' });
    await waitUntil(() => page.url().includes('#narrow/dm/'), 'the direct messages open');
    await page.getByRole('heading', { name: new RegExp(writerName) }).first().waitFor();

    if (viewport === PHONE) await page.getByRole('button', { name: 'Show people' }).click();
    await peopleListCard(page, writerName).click();
    await card(page).getByRole('button', { name: 'View messages sent' }).click();
    await waitUntil(() => page.url().includes('/sender/'), 'the messages sent open');
    await messageRow(page, 'Landing now').waitFor();
    assert.deepEqual(web.problems, []);
  });

  test(`at ${size} muting from the card hides the sender's messages with a way to reveal them, and settings unmute`, { skip: NO_CHROMIUM }, async () => {
    const { reader, writer, writerName, channelId, messageId } = await twoPeople();
    await writer.post('/messages', { type: 'private', to: JSON.stringify([reader.userId]), content: 'A private word' });
    const web = await suite.open(reader.credentials.email, `#narrow/channel/${channelId}`, { viewport });
    const { page } = web;
    const dmLink = page.locator('.dms a', { hasText: writerName });
    await dmLink.waitFor({ state: 'attached' });
    const row = page.locator(`[data-message-id="${messageId}"]`);
    await row.getByRole('button', { name: writerName, exact: true }).click();
    await card(page).getByRole('button', { name: 'Mute user' }).click();
    await page.getByRole('dialog', { name: `Mute ${writerName}?` }).getByRole('button', { name: 'Mute' }).click();
    await row.getByText('Hidden, because you muted the sender.').waitFor();
    assert.equal(await row.locator('.sender-name').innerText(), 'Muted user');
    assert.doesNotMatch(await row.innerText(), /Landing now/);
    assert.deepEqual(await mutedIds(reader), [writer.userId], 'the server knows');
    await snap(page, `muted-${size}`);
    // Left out of the people list and of the direct messages in the sidebar.
    assert.equal(await peopleListCard(page, writerName).count(), 0);
    assert.equal(await dmLink.count(), 0);

    // A new message from them arrives hidden.
    await writer.post('/messages', { type: 'stream', to: channelId, topic: 'Harbour', content: 'Another line' });
    await waitUntil(async () => (await page.getByText('Hidden, because you muted the sender.').count()) === 2, 'the new message is hidden too');

    await row.getByRole('button', { name: 'Reveal message' }).click();
    await row.getByText('Landing now').waitFor();
    await row.hover();
    await row.getByRole('button', { name: 'More message actions' }).click();
    await page.getByRole('menuitem', { name: 'Hide muted message again' }).click();
    await row.getByText('Hidden, because you muted the sender.').waitFor();

    await page.goto(`${suite.server.url}/#settings/muted-users`);
    const list = page.getByRole('region', { name: 'Muted users' });
    await list.getByRole('cell', { name: writerName, exact: true }).waitFor();
    await snap(page, `muted-settings-${size}`);
    await list.getByRole('button', { name: `Unmute ${writerName}` }).click();
    await list.getByText('You have not muted anyone.').waitFor();
    assert.deepEqual(await mutedIds(reader), []);
    await page.goto(`${suite.server.url}/#narrow/channel/${channelId}`);
    await messageRow(page, 'Landing now').waitFor();
    assert.deepEqual(web.problems, []);
  });

  test(`at ${size} a status set from the personal menu shows at once in another browser's people list and cards; invisible mode too`, { skip: NO_CHROMIUM }, async () => {
    const { reader, writer, writerName, channelId } = await twoPeople();
    const setter = await suite.open(writer.credentials.email, '#inbox', { viewport });
    const watcher = await suite.open(reader.credentials.email, `#narrow/channel/${channelId}`, { viewport: DESKTOP });
    const person = watcher.page.getByRole('complementary', { name: 'People' }).locator('.person', { has: watcher.page.getByRole('button', { name: `User card of ${writerName}`, exact: true }) });
    await person.waitFor();
    assert.equal(await person.locator('.presence').getAttribute('aria-label'), 'active', 'the writer is here');

    const { page } = setter;
    await page.getByRole('button', { name: 'Personal menu' }).click();
    await page.getByRole('menuitem', { name: 'Set a status' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set a status' });
    await dialog.getByRole('button', { name: /In a meeting/ }).click();
    await dialog.getByRole('textbox', { name: 'Status text' }).fill('In a meeting with the Senate');
    await snap(page, `status-dialog-${size}`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.deepEqual((await writer.get('/users/me/status')).body.status, { status_text: 'In a meeting with the Senate', emoji_name: 'calendar', emoji_code: '1f4c5', reaction_type: 'unicode_emoji' });

    // The other browser: the emoji beside the name, the text on the card and beside the sender.
    await person.locator('.status-line[title="In a meeting with the Senate"]').waitFor();
    await messageRow(watcher.page, 'Landing now').locator('.status-line').waitFor();
    await peopleListCard(watcher.page, writerName).click();
    await card(watcher.page).getByText('In a meeting with the Senate').waitFor();
    await snap(watcher.page, `status-seen-${size}`);
    await watcher.page.keyboard.press('Escape');

    // Invisible mode: shown to others as offline, and back.
    await page.getByRole('button', { name: 'Personal menu' }).click();
    await page.getByRole('menuitem', { name: 'Go invisible' }).click();
    await waitUntil(async () => (await person.locator('.presence').getAttribute('aria-label')) === 'offline', 'the writer shows as offline');
    assert.equal((await writer.get('/users/me/status')).body.status.away, true);
    await page.getByRole('button', { name: 'Personal menu' }).click();
    await page.getByRole('menuitem', { name: 'Turn off invisible mode' }).click();
    await waitUntil(async () => (await person.locator('.presence').getAttribute('aria-label')) === 'active', 'the writer shows as active again');

    // Clearing the status clears it everywhere.
    await page.getByRole('button', { name: 'Personal menu' }).click();
    await page.getByRole('menuitem', { name: 'Set a status' }).click();
    await page.getByRole('dialog', { name: 'Set a status' }).getByRole('button', { name: 'Clear status' }).click();
    await waitUntil(async () => (await person.locator('.status-line').count()) === 0, 'the status is gone');
    assert.deepEqual(setter.problems, []);
    assert.deepEqual(watcher.problems, []);
  });

  test(`at ${size} an administrator changes a role and deactivates someone from their card, after confirming`, { skip: NO_CHROMIUM }, async () => {
    const { writer, writerName, channelId } = await twoPeople();
    const web = await suite.open(OWNER_EMAIL, `#narrow/channel/${channelId}`, { password: OWNER_PASSWORD, viewport });
    const { page } = web;
    await messageRow(page, 'Landing now').getByRole('button', { name: writerName, exact: true }).click();
    const opened = card(page);
    await opened.getByRole('combobox', { name: 'Change role' }).selectOption({ label: 'Moderator' });
    await snap(page, `admin-card-${size}`);
    await opened.getByRole('button', { name: 'Save role' }).click();
    await waitUntil(async () => /Role\s+Moderator/.test(await opened.locator('.profile-details').innerText()), 'the card shows the new role');
    assert.equal((await suite.server.owner.get(`/users/${writer.userId}`)).body.user.role, 300);

    await opened.getByRole('button', { name: 'Deactivate user' }).click();
    const question = page.getByRole('dialog', { name: `Deactivate ${writerName}?` });
    await question.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await suite.server.owner.get(`/users/${writer.userId}`)).body.user.is_active, true, 'cancelling changes nothing');
    await opened.getByRole('button', { name: 'Deactivate user' }).click();
    await question.getByRole('button', { name: 'Deactivate' }).click();
    await opened.waitFor({ state: 'detached' });
    await waitUntil(async () => (await suite.server.owner.get(`/users/${writer.userId}`)).body.user.is_active === false, 'the user is deactivated');
    assert.deepEqual(web.problems, []);
  });
}

test("a person's profile has an address (#user/ID): opened first or over a view, closed by Escape or Back", { skip: NO_CHROMIUM }, async () => {
  const { reader, writerName, writer, channelId } = await twoPeople();
  // As the page's first address: the profile over the home view; closing it leaves the home view's address.
  const { page, problems } = await suite.open(reader.credentials.email, `#user/${writer.userId}`, { viewport: DESKTOP });
  const profile = page.getByRole('dialog', { name: writerName });
  await profile.waitFor();
  await page.keyboard.press('Escape');
  await profile.waitFor({ state: 'detached' });
  await waitUntil(async () => !String(await page.evaluate('location.hash')).startsWith('#user/'), 'the address is no longer the profile');

  // Over a channel: Back closes it and the channel stays.
  await page.evaluate(`location.hash = '#narrow/channel/${channelId}'`);
  await messageRow(page, 'Landing now').waitFor();
  await page.evaluate(`location.hash = '#user/${writer.userId}'`);
  await profile.waitFor();
  await page.goBack();
  await profile.waitFor({ state: 'detached' });
  assert.match(String(await page.evaluate('location.hash')), new RegExp(`^#narrow/channel/${channelId}`));
  await messageRow(page, 'Landing now').waitFor();
  assert.deepEqual(problems, []);
});

test('a large organization\'s people list draws a hundred people, and more as it is scrolled to its end', { skip: NO_CHROMIUM }, async () => {
  const { users } = suite.server.stoa;
  for (let i = 1; i <= 150; i++) users.insert(plainMemberRow(`crowd${i}`, `Zz Crowd ${String(i).padStart(3, '0')}`));
  const viewer = await suite.server.createUser(uniqueName('Crowd Viewer'));
  const humans = ((await viewer.get('/users')).body.members as Array<{ is_active: boolean; is_bot: boolean }>).filter((u) => u.is_active && !u.is_bot).length;
  assert.ok(humans > 100, `${humans} people`);
  const web = await suite.open(viewer.credentials.email, '#inbox', { viewport: DESKTOP });
  const list = web.page.getByRole('complementary', { name: 'People' });
  const rows = list.locator('li.person');
  await waitUntil(async () => (await rows.count()) === 100, 'a hundred people drawn');
  await rows.last().scrollIntoViewIfNeeded();
  await waitUntil(async () => (await rows.count()) === Math.min(humans, 200), 'up to a hundred more once scrolled to the end');
  // The filter finds anyone, drawn or not.
  await list.getByLabel('Filter people').fill('Zz Crowd 150');
  await waitUntil(async () => (await rows.count()) === 1, 'the one person found');
  await list.getByRole('button', { name: /Zz Crowd 150/ }).first().waitFor();
  assert.deepEqual(web.problems, []);
});
