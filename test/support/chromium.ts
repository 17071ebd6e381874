import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Chromium for the web client's end-to-end tests: Debian's `chromium` package (or the one
 * CHROMIUM_PATH names), driven by playwright-core. Tests skip when none is installed.
 */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

export const CHROMIUM_PATH: string | undefined = [process.env.CHROMIUM_PATH, ...CANDIDATES].find(
  (candidate): candidate is string => candidate !== undefined && candidate !== '' && existsSync(candidate),
);

/** For `test(name, { skip: NO_CHROMIUM }, ...)`: false, or why the test is skipped. */
export const NO_CHROMIUM: string | false = CHROMIUM_PATH ? false : 'no Chromium found: install Debian\'s chromium package or set CHROMIUM_PATH';

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // The sandbox needs user namespaces, which containers and root often lack.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors, page errors and refused requests: a page working as meant has none. */
  problems: string[];
}

/** A page that records what went wrong in it (scripts failing, CSP refusals). */
export async function openPage(context: BrowserContext, url: string): Promise<WatchedPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(url);
  return { page, problems };
}

/** A new browser context (its own cookies) at desktop size unless told. */
export function newContext(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  return browser.newContext({ viewport, reducedMotion: 'reduce', colorScheme: 'light' });
}
