import { after, before } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium, newContext, NO_CHROMIUM } from './chromium';
import { TestServer, type TestServerOptions } from './server';

/** Answers the client expects and handles: no session before logging in. */
const EXPECTED_REFUSALS: Array<[number, RegExp]> = [[401, /^\/accounts\/session$/]];

/** A person using the web client in a browser context of their own (their own cookies). */
export interface WebUser {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far. */
  problems: string[];
}

/** Logs in through the login page and waits for the app to be ready. */
export async function logInThroughPage(
  browser: Browser,
  baseUrl: string,
  email: string,
  password: string,
  options: { hash?: string; viewport?: { width: number; height: number } } = {},
): Promise<WebUser> {
  const context = await newContext(browser, options.viewport);
  const page = await context.newPage();
  const problems: string[] = [];
  // Failed requests are judged by their URL below; the console's copy of them names none.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (response.status() >= 400 && !EXPECTED_REFUSALS.some(([status, pattern]) => response.status() === status && pattern.test(path))) {
      problems.push(`${response.status()} ${response.request().method()} ${path}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(`${baseUrl}/login${options.hash ?? ''}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('navigation', { name: 'Views, channels and direct messages' }).waitFor();
  return { context, page, problems };
}

/** The messages of the feed as "Sender: text" lines (text as the reader sees it). */
export async function feedTexts(page: Page): Promise<string[]> {
  return page.locator('.message-row:not(.local-echo) .message-content').allInnerTexts();
}

/** The feed's row of the (server-confirmed) message whose text contains `text`. */
export function messageRow(page: Page, text: string) {
  return page.locator('.message-row:not(.local-echo)', { has: page.locator('.message-content', { hasText: text }) });
}

/** Opens the compose box for a channel and topic and sends `content` with Enter. */
export async function sendToChannel(page: Page, channel: string, topic: string, content: string): Promise<void> {
  if (!(await page.getByRole('textbox', { name: 'Message', exact: true }).isVisible())) {
    await page.getByRole('button', { name: /^New message/ }).click();
  }
  await page.getByRole('combobox', { name: 'Message type' }).selectOption('channel');
  await page.getByRole('combobox', { name: 'Channel' }).fill(channel);
  await page.getByRole('combobox', { name: 'Topic' }).fill(topic);
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill(content);
  await box.press('Enter');
}

/** Waits until `condition` holds, checking every 50 ms (no script is evaluated in the page). */
export async function waitUntil(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A DataTransfer in the page: what a drop or a paste carries. */
export interface PageDataTransfer {
  items: { add(file: File): void };
}

/**
 * The browser's globals that the tests' page functions use. The test project is typed for Node,
 * not the DOM, so a page function reads them through `globalThis as unknown as PageGlobals`.
 */
export interface PageGlobals {
  document: { activeElement: unknown; elementFromPoint(x: number, y: number): unknown };
  DataTransfer: new () => PageDataTransfer;
  ClipboardEvent: new (type: string, init: { clipboardData: PageDataTransfer; bubbles: boolean; cancelable: boolean }) => Event;
  /** What the notification spy of the settings test saw. */
  shownNotifications: string[];
}

/** Whether a tap at the element's middle would reach it: it is in view and nothing covers it. */
export function isTappable(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = (element as unknown as { getBoundingClientRect(): { x: number; y: number; width: number; height: number } }).getBoundingClientRect();
    return (globalThis as unknown as PageGlobals).document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === element;
  });
}

/** Whether the element has the keyboard focus. */
export function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === (globalThis as unknown as PageGlobals).document.activeElement);
}

/** One server and one Chromium shared by the tests of a file, and the people's pages opened in it. */
export interface WebSuite {
  readonly server: TestServer;
  readonly browser: Browser;
  /** Logs `email` in through the login page (password: the one TestServer.createUser gives) and opens `hash`. */
  open(email: string, hash: string, options?: { password?: string; viewport?: { width: number; height: number } }): Promise<WebUser>;
}

/**
 * Registers the file's before and after hooks: a server (without gravatar by default, so
 * every picture comes from it and no test needs the Internet) and a browser, started once
 * unless Chromium is missing, and closed with every page opened through `open`. Root-level
 * hooks do not wait for each other, so options that need something started first are given
 * as a function.
 */
export function webSuite(options: TestServerOptions | (() => Promise<TestServerOptions>) = { config: { gravatar: false } }): WebSuite {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  const opened: WebUser[] = [];
  before(async () => {
    if (NO_CHROMIUM) return;
    // Options made by a function are made here, when what they need (a mail server) can be started first.
    server = await TestServer.start(typeof options === 'function' ? await options() : options);
    browser = await launchChromium();
  });
  after(async () => {
    for (const user of opened) await user.context.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });
  return {
    get server() {
      return server!;
    },
    get browser() {
      return browser!;
    },
    async open(email, hash, { password = 'secret-password', viewport } = {}) {
      const user = await logInThroughPage(browser!, server!.url, email, password, { hash, viewport });
      opened.push(user);
      return user;
    },
  };
}

/** Opens a settings page from the settings' menu: its link on a desktop, its drop-down on a phone (where the links are hidden). */
export async function openSettingsPage(settings: Locator, label: string): Promise<void> {
  const link = settings.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: label, exact: true });
  if (await link.isVisible()) await link.click();
  else await settings.getByRole('combobox', { name: 'Settings page' }).selectOption({ label });
}
