import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createChannel, uniqueName } from './support/channels';
import { NO_CHROMIUM } from './support/chromium';
import type { Client } from './support/client';
import { messageRow, waitUntil, webSuite, type PageGlobals, type WebUser } from './support/web';

/**
 * Personal settings' pages: profile (avatar, own profile fields), preferences, notifications
 * (general and per channel), alert words and uploaded files. Each is saved on the server,
 * survives a reload, and takes effect in the page; at a desktop's size and a phone's.
 */

const suite = webSuite({ config: { gravatar: false, uploadQuotaMib: 100 } });

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** The person's settings as the server keeps them (what a new page would be given). */
async function storedSettings(client: Client) {
  const answer = await client.post('/register', { fetch_event_types: ['user_settings'] });
  return answer.body.user_settings as Record<string, unknown>;
}

function settingsRegion(page: Page) {
  return page.getByRole('region', { name: 'Personal settings' });
}

async function screenshot(web: WebUser, name: string) {
  if (process.env.SCREENSHOTS) await web.page.screenshot({ path: `/tmp/prefs-${name}.png`, fullPage: true });
}

// A 2x2 red PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

for (const viewport of VIEWPORTS) {
  const size = { width: viewport.width, height: viewport.height };

  test(`profile: one's own profile fields and deleting one's avatar (${viewport.name})`, { skip: NO_CHROMIUM }, async () => {
    const fieldName = uniqueName('Favourite fruit');
    const field = await suite.server.owner.post('/realm/profile_fields', { name: fieldName, hint: 'One word', field_type: 1 });
    assert.equal(field.status, 200);
    const person = await suite.server.createUser('Prof Fields');
    const web = await suite.open(person.credentials.email, '#settings/profile', { viewport: size });
    const settings = settingsRegion(web.page);

    const input = settings.getByRole('textbox', { name: fieldName, exact: true });
    await input.fill('Mango');
    await input.press('Tab');
    const fieldId = String(field.body.id);
    await waitUntil(async () => (await person.get(`/users/${person.userId}`, { include_custom_profile_fields: true })).body.user.profile_data?.[fieldId]?.value === 'Mango', 'the server keeps the field');
    await web.page.reload();
    await waitUntil(async () => (await input.inputValue()) === 'Mango', 'the field survives a reload');
    // Emptied, the field is removed.
    await input.fill('');
    await input.press('Tab');
    await waitUntil(async () => !(await person.get(`/users/${person.userId}`, { include_custom_profile_fields: true })).body.user.profile_data?.[fieldId], 'the emptied field is removed');

    // The avatar: uploaded, then deleted after asking; the default comes back.
    assert.equal(await settings.getByRole('button', { name: 'Delete avatar' }).count(), 0, 'a default avatar has nothing to delete');
    const avatar = settings.getByRole('img', { name: 'Your avatar' });
    const defaultUrl = await avatar.getAttribute('src');
    await settings.getByLabel('Upload a new avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await waitUntil(async () => (await avatar.getAttribute('src')) !== defaultUrl, 'the new avatar is shown');
    await screenshot(web, `profile-${viewport.name}`);
    await settings.getByRole('button', { name: 'Delete avatar' }).click();
    await web.page.getByRole('dialog', { name: 'Delete your avatar?' }).getByRole('button', { name: 'Delete' }).click();
    await waitUntil(async () => (await avatar.getAttribute('src')) === defaultUrl, 'the default avatar is back');
    assert.ok(!(await person.get('/users/me')).body.avatar_url.includes('/user_avatars/'));
    await settings.getByRole('button', { name: 'Delete avatar' }).waitFor({ state: 'detached' });
    assert.deepEqual(web.problems, []);
  });

  test(`preferences: clock, time zone, emoji, theme and home view (${viewport.name})`, { skip: NO_CHROMIUM }, async () => {
    const person = await suite.server.createUser('Pref Erence');
    const channel = await createChannel(person, {}, uniqueName('prefs'));
    await person.post('/messages', { type: 'stream', to: channel.id, topic: 'clock', content: 'Time for tea :smile:' });
    const web = await suite.open(person.credentials.email, `#narrow/channel/${channel.id}`, { viewport: size });
    const row = messageRow(web.page, 'Time for tea');
    const time = row.locator('.message-header time');
    await time.waitFor();
    const content = row.locator('.message-content');
    assert.ok(!(await content.innerText()).includes(':smile:'), 'emoji show as the device draws them');

    await web.page.goto(`${suite.server.url}/#settings/preferences`);
    const settings = settingsRegion(web.page);
    // The clock: 24-hour, saved, and the feed's times change at once.
    await settings.getByRole('combobox', { name: 'Time format' }).selectOption('24');
    await waitUntil(async () => (await storedSettings(person)).twenty_four_hour_time === true, 'the server keeps the 24-hour clock');
    await settings.getByRole('combobox', { name: 'Time format' }).selectOption('12');
    await waitUntil(async () => (await storedSettings(person)).twenty_four_hour_time === false, 'the server keeps the 12-hour clock');
    const feed = `${suite.server.url}/#narrow/channel/${channel.id}`;
    const prefs = `${suite.server.url}/#settings/preferences`;
    await web.page.goto(feed);
    await waitUntil(async () => /AM|PM/.test(await time.innerText()), 'the feed shows AM or PM');
    await web.page.goto(prefs);
    await settings.getByRole('combobox', { name: 'Time format' }).selectOption('24');
    await web.page.goto(feed);
    await waitUntil(async () => /^\d\d:\d\d$/.test((await time.innerText()).trim()), 'the feed shows a 24-hour time');
    await web.page.goto(prefs);

    // The time zone, from the list of IANA zones, and this browser's own.
    await settings.getByRole('combobox', { name: 'Time zone' }).selectOption('Asia/Tokyo');
    await waitUntil(async () => (await person.get('/users/me')).body.timezone === 'Asia/Tokyo', 'the server keeps the time zone');
    const browserZone = await web.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await settings.getByRole('button', { name: /^Use this browser's time zone/ }).click();
    await waitUntil(async () => (await person.get('/users/me')).body.timezone === browserZone, "the server keeps the browser's zone");

    // Emoji as plain text.
    await settings.getByRole('radio', { name: /^Plain text/ }).check();
    await waitUntil(async () => (await storedSettings(person)).emojiset === 'text', 'the server keeps the emoji set');

    // Theme and home view.
    await settings.getByRole('radio', { name: 'Dark' }).check();
    await waitUntil(async () => (await web.page.locator('html').getAttribute('data-theme')) === 'dark', 'the page is dark');
    await settings.getByRole('combobox', { name: 'Home view' }).selectOption('recent');
    await waitUntil(async () => (await storedSettings(person)).web_home_view === 'recent', 'the server keeps the home view');
    await settings.getByRole('checkbox', { name: 'Escape goes to the home view' }).uncheck();
    await waitUntil(async () => (await storedSettings(person)).web_escape_navigates_to_home_view === false, 'the server keeps the Escape setting');
    await screenshot(web, `preferences-${viewport.name}`);

    // After a reload every choice is as the server keeps it, and takes effect.
    await web.page.reload();
    await settings.getByRole('combobox', { name: 'Time format' }).waitFor();
    assert.equal(await settings.getByRole('combobox', { name: 'Time format' }).inputValue(), '24');
    assert.equal(await settings.getByRole('combobox', { name: 'Time zone' }).inputValue(), browserZone);
    assert.ok(await settings.getByRole('radio', { name: /^Plain text/ }).isChecked());
    assert.equal(await settings.getByRole('combobox', { name: 'Home view' }).inputValue(), 'recent');
    assert.ok(!(await settings.getByRole('checkbox', { name: 'Escape goes to the home view' }).isChecked()));
    assert.equal(await web.page.locator('html').getAttribute('data-theme'), 'dark');
    await web.page.goto(feed);
    await waitUntil(async () => (await content.innerText()).includes(':smile:'), 'emoji show as text');
    assert.ok(/^\d\d:\d\d$/.test((await time.innerText()).trim()));
    // The home view is where an address without a view leads.
    await web.page.goto(`${suite.server.url}/`);
    await web.page.getByRole('region', { name: 'Recent conversations' }).waitFor();
    assert.deepEqual(web.problems, []);
  });

  test(`notifications: general settings and each channel's own, live (${viewport.name})`, { skip: NO_CHROMIUM }, async () => {
    const person = await suite.server.createUser('Noti Fication');
    const friend = await suite.server.createUser('Noisy Friend');
    const loud = await createChannel(person, {}, uniqueName('loud'));
    const quiet = await createChannel(person, {}, uniqueName('quiet'));
    await friend.post('/users/me/subscriptions', { subscriptions: [{ name: loud.name }, { name: quiet.name }] });
    const web = await suite.open(person.credentials.email, '#settings/notifications', { viewport: size });
    await web.context.grantPermissions(['notifications'], { origin: suite.server.url });
    // Given as text: the test runner's transpiler would add helpers to a function that the page lacks.
    await web.context.addInitScript({
      content: `
        window.shownNotifications = [];
        window.Notification = new Proxy(window.Notification, {
          construct: (target, args) => {
            window.shownNotifications.push(args[0] + ': ' + ((args[1] && args[1].body) || ''));
            return Reflect.construct(target, args);
          },
          get: (target, key) => Reflect.get(target, key),
        });`,
    });
    await web.page.reload();
    const shown = () => web.page.evaluate(() => (globalThis as unknown as PageGlobals).shownNotifications);
    const settings = settingsRegion(web.page);

    // General: direct messages notify by default; turned off, they do not.
    const dmDesktop = settings.getByRole('checkbox', { name: 'Desktop: Direct messages, mentions and alert words' });
    await dmDesktop.waitFor();
    assert.ok(await dmDesktop.isChecked());
    await settings.getByRole('checkbox', { name: 'Mobile: Direct messages, mentions and alert words' }).uncheck();
    await waitUntil(async () => (await storedSettings(person)).enable_offline_push_notifications === false, 'the server keeps the mobile setting');
    await settings.getByRole('checkbox', { name: 'Show the text of direct messages in desktop notifications' }).uncheck();
    await waitUntil(async () => (await storedSettings(person)).pm_content_in_desktop_notifications === false, 'the server keeps the content setting');
    await friend.post('/messages', { type: 'direct', to: [person.userId], content: 'A secret' });
    await waitUntil(async () => (await shown()).length === 1, 'a notification of the direct message');
    assert.deepEqual(await shown(), ['Noisy Friend (Direct message): New direct message']);

    // A channel message does not notify by default; the loud channel is told to.
    await friend.post('/messages', { type: 'stream', to: quiet.id, topic: 'hush', content: 'Quiet words' });
    const loudDesktop = settings.getByRole('checkbox', { name: `Desktop: #${loud.name}` });
    assert.ok(!(await loudDesktop.isChecked()));
    await loudDesktop.check();
    await waitUntil(async () => {
      const subs = (await person.get('/users/me/subscriptions')).body.subscriptions as Array<{ stream_id: number; desktop_notifications: boolean | null }>;
      return subs.find((s) => s.stream_id === loud.id)?.desktop_notifications === true;
    }, 'the server keeps the channel override');
    await settings.getByRole('checkbox', { name: `Mobile: #${loud.name}` }).check();
    await waitUntil(async () => {
      const subs = (await person.get('/users/me/subscriptions')).body.subscriptions as Array<{ stream_id: number; push_notifications: boolean | null }>;
      return subs.find((s) => s.stream_id === loud.id)?.push_notifications === true;
    }, 'the server keeps the mobile override');
    await friend.post('/messages', { type: 'stream', to: loud.id, topic: 'news', content: 'Loud words' });
    await waitUntil(async () => (await shown()).length === 2, 'a notification of the loud channel');
    assert.equal((await shown())[1], `Noisy Friend (#${loud.name} › news): Loud words`);
    await screenshot(web, `notifications-${viewport.name}`);

    // Changed elsewhere (another client), the table follows at once.
    const quietSound = settings.getByRole('checkbox', { name: `Sound: #${quiet.name}` });
    assert.ok(!(await quietSound.isChecked()));
    await person.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: quiet.id, property: 'audible_notifications', value: true }] });
    await waitUntil(() => quietSound.isChecked(), 'the table shows the change made elsewhere');
    // Reset puts the channel back on the general settings.
    await settings.getByRole('button', { name: `Reset #${quiet.name}` }).click();
    await waitUntil(async () => !(await quietSound.isChecked()), 'the channel is reset');

    // After a reload the boxes are as the server keeps them.
    await web.page.reload();
    await loudDesktop.waitFor();
    assert.ok(await loudDesktop.isChecked());
    assert.ok(!(await settings.getByRole('checkbox', { name: 'Mobile: Direct messages, mentions and alert words' }).isChecked()));
    // Desktop notifications of direct messages off: a new one shows none.
    await dmDesktop.uncheck();
    await waitUntil(async () => (await storedSettings(person)).enable_desktop_notifications === false, 'the server keeps the desktop setting');
    await friend.post('/messages', { type: 'direct', to: [person.userId], content: 'Hello?' });
    await friend.post('/messages', { type: 'stream', to: loud.id, topic: 'news', content: 'Still loud' });
    await waitUntil(async () => (await shown()).some((n) => n.endsWith('Still loud')), 'the loud channel still notifies');
    assert.ok(!(await shown()).some((n) => n.endsWith('Hello?')));
    // This server sends no mail, so no email settings are offered.
    assert.equal(await settings.getByRole('checkbox', { name: 'Email: Direct messages, mentions and alert words' }).count(), 0);
    assert.equal(await settings.getByRole('group', { name: 'Emails of missed messages' }).count(), 0);
    assert.deepEqual(web.problems, []);
  });

  test(`alert words: added, highlighted in messages, removed (${viewport.name})`, { skip: NO_CHROMIUM }, async () => {
    const person = await suite.server.createUser('Alert Person');
    const friend = await suite.server.createUser('Alert Friend');
    const channel = await createChannel(person, {}, uniqueName('alerts'));
    await friend.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }] });
    const web = await suite.open(person.credentials.email, '#settings/alert-words', { viewport: size });
    const settings = settingsRegion(web.page);
    await settings.getByRole('textbox', { name: 'New alert word' }).fill('pineapple');
    await settings.getByRole('button', { name: 'Add' }).click();
    await settings.getByRole('list', { name: 'Your alert words' }).getByText('pineapple').waitFor();
    await settings.getByRole('textbox', { name: 'New alert word' }).fill('code review');
    await settings.getByRole('textbox', { name: 'New alert word' }).press('Enter');
    await settings.getByRole('list', { name: 'Your alert words' }).getByText('code review').waitFor();
    assert.deepEqual(((await person.get('/users/me/alert_words')).body.alert_words as string[]).sort(), ['code review', 'pineapple']);
    await screenshot(web, `alert-words-${viewport.name}`);

    await friend.post('/messages', { type: 'stream', to: channel.id, topic: 'lunch', content: 'Pineapple pizza after the Code Review? Not pineapples.' });
    await web.page.goto(`${suite.server.url}/#narrow/channel/${channel.id}`);
    const row = messageRow(web.page, 'Pineapple pizza');
    await row.waitFor();
    assert.deepEqual(await row.locator('.alert-word').allInnerTexts(), ['Pineapple', 'Code Review']);

    // Removed: gone from the list and the server, after a reload too.
    await web.page.goto(`${suite.server.url}/#settings/alert-words`);
    await settings.getByRole('button', { name: 'Remove pineapple' }).click();
    await settings.getByRole('button', { name: 'Remove pineapple' }).waitFor({ state: 'detached' });
    assert.deepEqual((await person.get('/users/me/alert_words')).body.alert_words, ['code review']);
    await web.page.reload();
    await settings.getByRole('button', { name: 'Remove code review' }).waitFor();
    assert.equal(await settings.getByRole('button', { name: 'Remove pineapple' }).count(), 0);
    assert.deepEqual(web.problems, []);
  });

  test(`uploaded files: listed with size and messages, quota, deleted after asking (${viewport.name})`, { skip: NO_CHROMIUM }, async () => {
    const person = await suite.server.createUser('Up Loader');
    const channel = await createChannel(person, {}, uniqueName('files'));
    const uploaded = await person.upload('/user_uploads', [{ name: 'report.txt', bytes: 'x'.repeat(1536), type: 'text/plain' }]);
    assert.equal(uploaded.status, 200);
    await person.upload('/user_uploads', [{ name: 'lonely.txt', bytes: 'y'.repeat(10), type: 'text/plain' }]);
    const sent = await person.post('/messages', { type: 'stream', to: channel.id, topic: 'docs', content: `See [report.txt](${uploaded.body.url as string})` });
    const web = await suite.open(person.credentials.email, '#settings/uploaded-files', { viewport: size });
    const settings = settingsRegion(web.page);
    const report = settings.getByRole('row').filter({ hasText: 'report.txt' });
    await report.waitFor();
    assert.ok((await report.innerText()).includes('1.5 KB'));
    assert.ok((await settings.getByRole('row').filter({ hasText: 'lonely.txt' }).innerText()).includes('10 bytes'));
    await settings.getByText(/uploads use .* of 100 MB/).waitFor();
    await screenshot(web, `uploaded-files-${viewport.name}`);

    // The message it is in opens from the list.
    await report.getByRole('link', { name: 'Message 1' }).click();
    await messageRow(web.page, 'See report.txt').waitFor();
    assert.ok(web.page.url().includes(`/${sent.body.id as number}`));
    await web.page.goBack();

    // Deleting asks first; no keeps it.
    const lonely = settings.getByRole('row').filter({ hasText: 'lonely.txt' });
    await lonely.getByRole('button', { name: 'Delete lonely.txt' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'Delete lonely.txt?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await person.get('/attachments')).body.attachments.length, 2);
    await lonely.getByRole('button', { name: 'Delete lonely.txt' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await lonely.waitFor({ state: 'detached' });
    const left = (await person.get('/attachments')).body.attachments as Array<{ name: string }>;
    assert.deepEqual(left.map((a) => a.name), ['report.txt']);
    await web.page.reload();
    await report.waitFor();
    assert.equal(await settings.getByRole('row').filter({ hasText: 'lonely.txt' }).count(), 0);
    assert.deepEqual(web.problems, []);
  });
}
