import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium, newContext, NO_CHROMIUM, openPage } from './support/chromium';
import { TestServer } from './support/server';

let server: TestServer;
let browser: Browser | undefined;

before(async () => {
  server = await TestServer.start();
  if (!NO_CHROMIUM) browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server.close();
});

test('the page at / links hashed assets, is never cached, and allows no inline script but its own', async () => {
  const page = await fetch(`${server.url}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(page.headers.get('cache-control'), 'no-cache');
  const policy = page.headers.get('content-security-policy') ?? '';
  assert.match(policy, /connect-src 'self'/);
  assert.match(policy, /img-src 'self' data: blob: https:\/\/secure\.gravatar\.com/);
  const html = await page.text();
  // One inline script, the page's own (its first requests), allowed by its hash and nothing else.
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.equal(inline.length, 1, 'the page has one inline script');
  const hash = createHash('sha256').update(inline[0]).digest('base64');
  assert.equal(/script-src ([^;]*)/.exec(policy)?.[1], `'self' 'sha256-${hash}'`);
  const script = /src="(\/static\/web\/app-[A-Z0-9]+\.js)"/.exec(html)?.[1];
  const stylesheet = /href="(\/static\/web\/app-[A-Z0-9]+\.css)"/.exec(html)?.[1];
  assert.ok(script && stylesheet, html);

  for (const [asset, type] of [
    [script, /^text\/javascript/],
    [stylesheet, /^text\/css/],
  ] as const) {
    const answer = await fetch(`${server.url}${asset}`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', type);
    assert.equal(answer.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(answer.headers.get('content-encoding'), 'gzip', 'sent compressed to a browser that takes it');
    // The script is only the entry (it imports the early requests and the app, both preloaded).
    assert.ok((await answer.arrayBuffer()).byteLength > 100, `${asset} has content`);
  }
  // The chunks the script imports before it can run are named in the page, so the browser
  // fetches them beside the script instead of after it.
  const scriptText = await (await fetch(`${server.url}${script}`)).text();
  const imported = [...scriptText.matchAll(/import[^"'();]*?from\s*["']\.\/(chunk-[A-Z0-9]+\.js)["']/g)].map((m) => m[1]);
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="\/static\/web\/(chunk-[A-Z0-9]+\.js)">/g)].map((m) => m[1]);
  assert.ok(imported.length > 0, 'the script imports shared chunks');
  for (const chunk of imported) assert.ok(preloaded.includes(chunk), `${chunk} is preloaded`);
  // KaTeX's fonts come from the server too, by the names the stylesheet gives.
  const css = await (await fetch(`${server.url}${stylesheet}`)).text();
  const font = /url\("?\.\/(KaTeX_Main-Regular-[A-Z0-9]+\.woff2)"?\)/.exec(css)?.[1];
  assert.ok(font, 'the stylesheet names KaTeX fonts beside it');
  const fontAnswer = await fetch(`${server.url}/static/web/${font}`);
  assert.equal(fontAnswer.status, 200);
  assert.equal(fontAnswer.headers.get('content-type'), 'font/woff2');
  assert.doesNotMatch(css, /\.ttf|\.woff\)/, 'only woff2 fonts are bundled');

  const missing = await fetch(`${server.url}/static/web/app-NOPE.js`);
  assert.equal(missing.status, 404);
  // The sign-up and login paths answer the same page; the API's 404 stays JSON.
  for (const path of ['/login', '/login/', '/join/some-key', '/join/some-key/']) assert.equal((await fetch(`${server.url}${path}`)).status, 200, path);
  const unknown = await fetch(`${server.url}/no/such/page`);
  assert.equal(unknown.status, 404);
  assert.equal(((await unknown.json()) as { result: string }).result, 'error');
});

test('with --no-gravatar the page allows no picture from elsewhere', async () => {
  const offline = await TestServer.start({ config: { gravatar: false } });
  try {
    const policy = (await fetch(`${offline.url}/`)).headers.get('content-security-policy') ?? '';
    assert.match(policy, /img-src 'self' data: blob:;/);
  } finally {
    await offline.close();
  }
});

test('gravatars are made by the page: the server leaves their URLs out of the people list', { skip: NO_CHROMIUM }, async () => {
  const person = await server.createUser('Gravatar Person');
  const context = await newContext(browser!);
  try {
    // No test may need the Internet: the gravatar host answers from here, and says what was asked.
    const asked: string[] = [];
    await context.route('https://secure.gravatar.com/**', (route) => {
      asked.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>' });
    });
    const { page, problems } = await openPage(context, `${server.url}/login`);
    const registered = page.waitForResponse((r) => new URL(r.url()).pathname === '/json/register');
    await page.getByLabel('Email').fill(person.credentials.email);
    await page.getByLabel('Password').fill('secret-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    const answer = await registered;
    assert.equal(new URLSearchParams(answer.request().postData() ?? '').get('client_gravatar'), 'true');
    const state = (await answer.json()) as { realm_users: Array<{ user_id: number; avatar_url: string | null }> };
    assert.equal(state.realm_users.find((u) => u.user_id === person.userId)?.avatar_url, null, 'no URL sent for a gravatar');

    const gravatar = `https://secure.gravatar.com/avatar/${createHash('md5').update(person.credentials.email.toLowerCase()).digest('hex')}?d=identicon`;
    const own = page.getByRole('banner').locator('img.avatar').first();
    await own.waitFor();
    assert.equal(await own.getAttribute('src'), gravatar, 'the page makes the same gravatar URL the server would');
    await page.waitForFunction('[...document.images].every((img) => img.complete)');
    assert.ok(asked.includes(gravatar), 'the browser asked the gravatar host for it');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a visitor without a session is sent to the login page, which works under the policy', { skip: NO_CHROMIUM }, async () => {
  const context = await newContext(browser!);
  try {
    const { page, problems } = await openPage(context, `${server.url}/`);
    await page.waitForURL(/\/login$/);
    await page.getByRole('heading', { name: /Log in to Stoa/ }).waitFor();
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').waitFor();
    assert.deepEqual(
      problems.filter((p) => !/401|status of 4\d\d/.test(p)),
      [],
    );
  } finally {
    await context.close();
  }
});

test('the page follows the system\'s dark theme', { skip: NO_CHROMIUM }, async () => {
  const context = await browser!.newContext({ colorScheme: 'dark' });
  try {
    const { page, problems } = await openPage(context, `${server.url}/login`);
    await page.getByRole('heading', { name: /Log in/ }).waitFor();
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
    // Not even the --dev login list is asked for, since this server has no development login.
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
