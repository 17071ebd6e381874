import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium, newContext, NO_CHROMIUM } from './support/chromium';
import { OWNER_EMAIL, OWNER_PASSWORD, TestServer } from './support/server';
import { logInThroughPage, waitUntil } from './support/web';

let server: TestServer;
let browser: Browser;

before(async () => {
  if (NO_CHROMIUM) return;
  server = await TestServer.start({ dev: true, config: { gravatar: false } });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('an administrator makes an invitation link, and a new person joins through it', { skip: NO_CHROMIUM }, async () => {
  const owner = await logInThroughPage(browser, server.url, OWNER_EMAIL, OWNER_PASSWORD, { hash: '#organization/invites-list-admin' });
  try {
    await owner.page.getByRole('button', { name: 'Create invitation link' }).click();
    const linkBox = owner.page.getByRole('textbox', { name: 'Invitation link' }).first();
    await linkBox.waitFor();
    const link = await linkBox.inputValue();
    assert.match(link, /\/join\/[^/]+\/$/);

    const newcomer = await newContext(browser);
    try {
      const page = await newcomer.newPage();
      await page.goto(link);
      await page.getByRole('heading', { name: 'Join Stoa' }).waitFor();
      await page.getByLabel('Full name').fill('Nina Newcomer');
      await page.getByLabel('Email').fill('nina@example.com');
      await page.getByLabel('Password').fill('a-long-password');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByRole('navigation', { name: 'Views, channels and direct messages' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/');
      // The owner sees the newcomer arrive among the people, live.
      await owner.page.getByRole('complementary', { name: 'People' }).getByText('Nina Newcomer').waitFor();
      const people = await server.owner.get('/users');
      assert.ok(people.body.members.some((u: { email: string; full_name: string }) => u.email === 'nina@example.com' && u.full_name === 'Nina Newcomer'));
    } finally {
      await newcomer.close();
    }
    assert.deepEqual(owner.problems, []);
  } finally {
    await owner.context.close();
  }
});

test('a bad invitation link says so', { skip: NO_CHROMIUM }, async () => {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/join/not-a-real-key/`);
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /not valid|expired|invitation/i);
  } finally {
    await context.close();
  }
});

test('logging out ends the session; the development login signs in with one click', { skip: NO_CHROMIUM }, async () => {
  const member = await server.createUser('Dev Person');
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: member.credentials.email }).click();
    await page.getByRole('navigation', { name: 'Views, channels and direct messages' }).waitFor();
    await page.getByRole('button', { name: 'Personal menu' }).click();
    await page.getByText(member.credentials.email).waitFor();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await waitUntil(() => new URL(page.url()).pathname === '/login', 'back at the login page');
    // The cookie no longer opens the app: the page sends the visitor to log in.
    await page.goto(`${server.url}/`);
    await waitUntil(() => new URL(page.url()).pathname === '/login', 'sent to log in again');
  } finally {
    await context.close();
  }
});
