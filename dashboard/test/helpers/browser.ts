import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Printed by CI as the place to find them; git-ignored. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../artifacts/screenshots/', import.meta.url));

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Debian's Chromium, headless: never a browser downloaded by Playwright. */
export function launchBrowser(): Promise<Browser> {
  return chromium
    .launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    })
    .catch((error: unknown) => {
      throw new Error(`Could not start Chromium at ${CHROMIUM} (install it with \`apt-get install -y chromium\`, or set CHROMIUM_PATH): ${String(error)}`);
    });
}

/** A fresh profile (empty sessionStorage) at a screen size; page errors fail the test that reads them. */
export async function newPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // A refused API call is logged by the browser itself ("Failed to load resource"); that is the
  // test's business. Anything else (an exception, a CSP refusal) is a defect of the page.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  page.setDefaultTimeout(15_000);
  return { context, page, errors };
}

/** The whole page by default; `fullPage: false` keeps what a phone shows without scrolling. */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}
