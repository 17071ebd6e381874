/**
 * Web client benchmark: the size of what a browser downloads (script and stylesheet, gzipped
 * as the server sends them), how long until the app is usable in an organization of 10,000
 * messages, and how long switching channels takes, in headless Chromium.
 *
 *   npm run bench:web -- [--messages 10000] [--channels 5] [--switches 10] [--loads 5]
 *
 * The first round of switches opens each channel for the first time, so there are as many
 * first visits as channels: with fewer than 20, their 95th percentile is simply the slowest.
 *
 * The server runs in this process (as `npm start` does, the client built on the first page
 * request, which is not counted: the page is loaded once before measuring).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { DEFAULTS } from '../lib/config';
import { startServer } from '../lib/server';
import { CHROMIUM_PATH } from '../test/support/chromium';

const { values: args } = parseArgs({
  options: { messages: { type: 'string', default: '10000' }, channels: { type: 'string', default: '5' }, switches: { type: 'string', default: '10' }, loads: { type: 'string', default: '5' } },
});
const MESSAGES = Number(args.messages);
const SWITCHES = Number(args.switches);
const LOADS = Number(args.loads);
const CHANNELS = Number(args.channels);
const EMAIL = 'owner@bench.example';
const PASSWORD = 'bench-password';

interface Switch {
  /** From the click event to the frame after the messages are in the page. */
  inPage: number;
  /** As Playwright sees it: from asking for the click to hearing from the page that the messages are shown. */
  driven: number;
}

/**
 * Run in the page before a click: times from the click to the first frame after the channel's
 * recipient bar is in the document and the list is no longer busy. `window.switchTime` is a
 * promise of that time, awaited from here in one call, so the harness does not poll the page
 * (polling would take the page's main thread while it draws). A string, so the bundler's
 * helpers never reach the page.
 */
const TIME_NEXT_SWITCH = `(() => {
  const name = '#' + CHANNEL;
  window.switchTime = new Promise((resolve) => {
    document.addEventListener('click', () => {
      const start = performance.now();
      const shown = () => !document.querySelector('[aria-busy="true"]') &&
        [...document.querySelectorAll('.recipient-channel')].some((bar) => bar.textContent === name);
      const watcher = new MutationObserver(() => {
        if (!shown()) return;
        watcher.disconnect();
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
      });
      watcher.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
    }, { capture: true, once: true });
  });
})()`;

/**
 * Run in the page before its own scripts: notes when the first message is in the document, in
 * milliseconds from the start of the navigation (the page's time origin), into
 * `window.firstMessageAt`.
 */
const NOTE_FIRST_MESSAGE = `new MutationObserver((_, watcher) => {
  if (!document.querySelector('.message-row')) return;
  watcher.disconnect();
  requestAnimationFrame(() => setTimeout(() => { window.firstMessageAt = performance.now(); }, 0));
}).observe(document, { childList: true, subtree: true })`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** The 95th percentile (nearest rank): the value 95% of the values are at or below. */
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1];

/** The page's script, stylesheet and preloaded chunks, by path, with the bytes a browser taking gzip receives. */
async function transferredSizes(base: string): Promise<Array<[string, number]>> {
  const page = await (await fetch(`${base}/`)).text();
  const assets = [...page.matchAll(/(?:src|href)="(\/static\/web\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  // The page's own script, written into it, counted as if sent compressed on its own.
  const inline = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m): [string, number] => ['script in the page', gzipSync(m[1]).length]);
  const files = await Promise.all(
    assets.map(
      (asset) =>
        new Promise<[string, number]>((resolve, reject) => {
          get(`${base}${asset}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
            let bytes = 0;
            res.on('data', (chunk: Buffer) => (bytes += chunk.length));
            res.on('end', () => resolve([asset, bytes]));
          }).on('error', reject);
        }),
    ),
  );
  return [...inline, ...files];
}

async function main(): Promise<void> {
  if (!CHROMIUM_PATH) throw new Error('no Chromium found (install Debian\'s chromium package or set CHROMIUM_PATH)');
  const data = mkdtempSync(path.join(tmpdir(), 'stoa-bench-web-'));
  const server = await startServer({ ...DEFAULTS, port: 0, data, adminEmail: EMAIL, adminPassword: PASSWORD, gravatar: false }, { log: () => {} });
  try {
    const key = (await (await fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: EMAIL, password: PASSWORD }) })).json()) as { api_key: string };
    const auth = `Basic ${Buffer.from(`${EMAIL}:${key.api_key}`).toString('base64')}`;
    const post = async (route: string, params: Record<string, string>) => {
      const answer = await fetch(`${server.url}/api/v1${route}`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams(params) });
      if (!answer.ok) throw new Error(`${route}: ${await answer.text()}`);
    };
    const names = Array.from({ length: CHANNELS }, (_, i) => `bench ${i}`);
    await post('/users/me/subscriptions', { subscriptions: JSON.stringify(names.map((name) => ({ name }))) });
    console.log(`load average before: ${loadavg().map((n) => n.toFixed(2)).join(' ')} (${cpus().length} CPUs)`);
    const started = performance.now();
    let sent = 0;
    // Eight senders at a time; messages spread over the channels and 20 topics each.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent < MESSAGES) {
          const n = sent++;
          await post('/messages', {
            type: 'stream',
            to: names[n % CHANNELS],
            topic: `topic ${n % 20}`,
            content: `Message number ${n} with **some** Markdown, a :smile: and a link to https://example.com/${n}`,
            read_by_sender: 'false',
          });
        }
      }),
    );
    console.log(`${MESSAGES} messages sent in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();

    await page.goto(`${server.url}/login#feed`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.locator('.message-row').first().waitFor();

    // First usable: from navigation to the feed showing messages and the compose button, with
    // the assets in the browser's cache (immutable) as on every visit but the first.
    const loads: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const t = performance.now();
      await page.goto(`${server.url}/#narrow/channel/${(i % CHANNELS) + 1}`);
      await page.locator('.message-row').first().waitFor();
      await page.getByRole('button', { name: /^New message/ }).waitFor();
      loads.push(performance.now() - t);
    }
    // Empty cache: a new browser context each time, so nothing is cached. Timed from pressing
    // Log in (the password check included), as Playwright sees it, and in the page from the
    // start of its navigation to the frame showing the first message, already signed in (the
    // session cookie carried over, the cache still empty).
    const signedIn = await context.storageState();
    const coldLogins: number[] = [];
    const coldOpens: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const cold = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const coldPage = await cold.newPage();
      await coldPage.goto(`${server.url}/login#feed`);
      await coldPage.getByLabel('Email').fill(EMAIL);
      await coldPage.getByLabel('Password').fill(PASSWORD);
      const t = performance.now();
      await coldPage.getByRole('button', { name: 'Log in' }).click();
      await coldPage.locator('.message-row').first().waitFor();
      coldLogins.push(performance.now() - t);
      await cold.close();

      const reopened = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: signedIn });
      const reopenedPage = await reopened.newPage();
      await reopenedPage.addInitScript(NOTE_FIRST_MESSAGE);
      await reopenedPage.goto(`${server.url}/#feed`);
      await reopenedPage.locator('.message-row').first().waitFor();
      await reopenedPage.getByRole('button', { name: /^New message/ }).waitFor();
      coldOpens.push((await reopenedPage.evaluate('window.firstMessageAt')) as number);
      await reopened.close();
    }

    // Channel switches: clicking a channel in the sidebar until its messages are shown. Timed
    // twice: in the page, from the click event to the frame after the channel's messages are
    // in the document (what a person waits for), and from here, as Playwright drives it (which
    // adds its own checks and round trips). The first round opens each channel for the first
    // time in this page; later rounds return to channels seen before. The next click follows
    // at once, as someone passing through channels would.
    await page.goto(`${server.url}/#inbox`);
    await page.getByRole('navigation').waitFor();
    const firstVisits: Switch[] = [];
    const returns: Switch[] = [];
    for (let i = 0; i < SWITCHES; i++) {
      const name = names[i % CHANNELS];
      await page.evaluate(TIME_NEXT_SWITCH.replace('CHANNEL', JSON.stringify(name)));
      const t = performance.now();
      await page.getByRole('navigation').getByRole('link', { name: new RegExp(`^${name}\\b`) }).click();
      const inPage = (await page.evaluate('window.switchTime')) as number;
      const driven = performance.now() - t;
      (i < CHANNELS ? firstVisits : returns).push({ inPage, driven });
    }
    await browser.close();

    const sizes = await transferredSizes(server.url);
    const total = sizes.reduce((sum, [, size]) => sum + size, 0);
    for (const [name, size] of sizes) console.log(`${name}: ${(size / 1024).toFixed(1)} KB gzipped`);
    console.log(`first view's script, chunks and stylesheet: ${(total / 1024).toFixed(1)} KB gzipped (budget 80 KB)`);
    console.log(`first usable, assets cached: median ${median(loads).toFixed(0)} ms over ${LOADS} loads`);
    console.log(`first message shown after opening the page signed in, empty cache, in page: median ${median(coldOpens).toFixed(0)} ms (max ${Math.max(...coldOpens).toFixed(0)}) over ${LOADS}`);
    console.log(`first usable after pressing Log in, empty cache: median ${median(coldLogins).toFixed(0)} ms (max ${Math.max(...coldLogins).toFixed(0)}) over ${LOADS}`);
    for (const [label, list] of [['first visit', firstVisits], ['return', returns]] as const) {
      if (list.length === 0) continue;
      const inPage = list.map((s) => s.inPage);
      const driven = list.map((s) => s.driven);
      console.log(
        `channel switch, ${label}: in page median ${median(inPage).toFixed(0)} ms (p95 ${p95(inPage).toFixed(0)}, max ${Math.max(...inPage).toFixed(0)}), ` +
          `driven median ${median(driven).toFixed(0)} ms (max ${Math.max(...driven).toFixed(0)}) over ${list.length}`,
      );
    }
    console.log(`load average after: ${loadavg().map((n) => n.toFixed(2)).join(' ')} (${cpus().length} CPUs)`);
  } finally {
    await server.close();
    rmSync(data, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
