import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import { OWNER_EMAIL, OWNER_PASSWORD } from './support/server';
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
    const tokyo = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Tokyo' }).format(new Date());
    assert.match(details, new RegExp(`Local time\\s+${tokyo.replace(/\s/g, '\\s')}`));
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
    assert.ok(await isFocused(name), 'the focus is back on the name');

    // The full profile shows every field.
    await name.click();
    await card(page).getByRole('button', { name: 'View full profile' }).click();
    const profile = page.getByRole('dialog', { name: writerName });
    await profile.waitFor();
    await snap(page, `profile-${size}`);
    const all = await profile.locator('.profile-details').innerText();
    assert.match(all, /The Moor/);
    assert.match(all, /1990/);
    assert.match(all, /Asia\/Tokyo/);
    await profile.getByRole('button', { name: 'Close' }).click();
    await profile.waitFor({ state: 'detached' });
    assert.deepEqual(web.problems, []);
  });
}
