import { ensure, step } from './expect.js';
import type { Check } from './types.js';

const TIMEOUT_MS = 10_000;

/** What browsers and load balancers do is not in the SDK: these go over plain fetch. */
async function get(url: string, init: RequestInit = {}): Promise<Response> {
  return step(`${init.method ?? 'GET'} ${new URL(url).pathname}`, () => fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) }));
}

export const health: Check = {
  name: 'health',
  async run(context) {
    const answer = await step('GET /actuator/health', () => context.as().ops.health());
    ensure(answer.status === 'UP', `GET /actuator/health says ${answer.status}`);
    const info = await step('GET /actuator/info', () => context.as().ops.info());
    return `UP, version ${info.version}, commit ${info.commit}`;
  },
};

export const dashboard: Check = {
  name: 'dashboard',
  async run(context) {
    const base = context.options.url;
    const page = await get(`${base}/`);
    ensure(page.status === 200, `GET / answered ${page.status}`);
    ensure(page.headers.get('content-type')?.startsWith('text/html'), `GET / is ${page.headers.get('content-type')}, not HTML`);
    const html = await page.text();
    // Without a dashboard build the broker still answers / with a page saying so, which is a broken deploy.
    ensure(html.includes('id="root"'), 'GET / is not the dashboard (was it built into the image?)');
    const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
    ensure(script, "the dashboard's page loads no script");
    const asset = await get(new URL(script, `${base}/`).toString());
    ensure(asset.status === 200, `the dashboard's script ${script} answered ${asset.status}`);
    await asset.arrayBuffer();
    return `GET / serves the dashboard and its script ${script}`;
  },
};

/** A preflight as a browser on `origin` sends it before a POST with a key. */
async function preflight(base: string, origin: string): Promise<string | null> {
  const response = await get(`${base}/api/v1/topics`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  });
  await response.arrayBuffer();
  return response.headers.get('access-control-allow-origin');
}

export const cors: Check = {
  name: 'cors',
  async run(context) {
    const { url, corsAllowed, corsDenied } = context.options;
    if (corsAllowed !== undefined) {
      const allowed = await preflight(url, corsAllowed);
      ensure(allowed === corsAllowed || allowed === '*', `a preflight from ${corsAllowed} was not allowed (is it in CORS_ALLOWED_ORIGINS?)`);
    }
    const denied = await preflight(url, corsDenied);
    ensure(denied === null, `a preflight from ${corsDenied} was allowed (Access-Control-Allow-Origin: ${denied})`);
    // The broker's own origin needs no CORS: a browser sends no preflight to the origin of its page.
    const allowedPart =
      corsAllowed === undefined
        ? `its own origin ${new URL(url).origin} needs none (--cors-origin checks another)`
        : `a preflight from ${corsAllowed} is allowed`;
    return `${allowedPart}; from ${corsDenied} refused`;
  },
};
