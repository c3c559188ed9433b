import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startSdkBroker, type SdkBroker } from './broker.js';

// Debian's chromium (TOOLCHAIN.md); playwright's own browser downloads are not used.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The SDK bundled for browsers as a page would load it: no Node built-ins may be needed. */
async function browserBundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../../src/index.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
  });
  return result.outputFiles[0].text;
}

/** A page on its own origin that loads the SDK bundle as a module and leaves it on `window.sdk`. */
export interface SdkPage {
  server: Server;
  origin: string;
}

export async function serveSdkPage(): Promise<SdkPage> {
  const bundle = await browserBundle();
  const server = createServer((request, response) => {
    if (request.url === '/sdk.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      return void response.end(bundle);
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>sdk</title><script type="module">
      import * as sdk from '/sdk.js';
      window.sdk = sdk;
    </script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Headless Chromium. Never skipped: `npm test` installs Chromium first, or stops saying how to. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** What a browser test file works with: a broker, the SDK's page and Chromium. */
export interface BrowserSetup {
  env: SdkBroker;
  page: SdkPage;
  browser: Browser;
}

/**
 * Starts the page, a broker that allows the page's origin (plus `brokerEnv`) and Chromium before
 * the calling file's tests, and stops them after. The returned function gives them to a test.
 */
export function browserForFile(brokerEnv: Record<string, string> = {}): () => BrowserSetup {
  let setup: Partial<BrowserSetup> = {};
  beforeAll(async () => {
    const page = await serveSdkPage();
    setup = { page, env: await startSdkBroker({ CORS_ALLOWED_ORIGINS: page.origin, ...brokerEnv }), browser: await launchChromium() };
  });
  afterAll(async () => {
    await setup.browser?.close();
    await setup.env?.stop();
    setup.page?.server.close();
  });
  return () => setup as BrowserSetup;
}

/** A new tab on the SDK's page, once the bundle is loaded; `beforeLoad` may watch it first. */
export async function openSdkTab(setup: BrowserSetup, beforeLoad: (tab: Page) => void = () => undefined): Promise<Page> {
  const tab = await setup.browser.newPage();
  beforeLoad(tab);
  await tab.goto(setup.page.origin);
  await tab.waitForFunction(() => 'sdk' in window);
  return tab;
}
