#!/usr/bin/env node
// Gives Prometheus a key of its own with only the `metrics` scope, so the admin key never sits in
// Prometheus' config or volume. Runs once before Prometheus starts (a compose one-shot service, a
// container of the local stack, an init container on Kubernetes), with the broker image's node.
//
// Creates the client `prometheus`; when it exists already (a restart), rotates its key, since a key
// is shown only once. The old key dies at once, and Prometheus reads the file on every scrape.
//
// Environment: MINIQUEUE_URL, MINIQUEUE_ADMIN_KEY, METRICS_KEY_FILE,
// METRICS_CLIENT_NAME (default prometheus), METRICS_KEY_WAIT_SECONDS (default 300).
import { rename, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(baseUrl, adminKey, method, path, body) {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Creates the client, or rotates its key when it exists; returns the new key. */
export async function issueMetricsKey({ baseUrl, adminKey, name }) {
  const created = await call(baseUrl, adminKey, 'POST', '/api/v1/clients', { name, scopes: ['metrics'] });
  if (created.status === 201) return created.body.api_key;
  if (created.status !== 409) throw new Error(`creating client ${name}: HTTP ${created.status}`);
  const rotated = await call(baseUrl, adminKey, 'POST', `/api/v1/clients/${encodeURIComponent(name)}/rotate`);
  if (rotated.status === 200) return rotated.body.api_key;
  throw new Error(`rotating the key of ${name}: HTTP ${rotated.status}`);
}

/** Retries while the broker is starting (connection refused, 5xx); a 4xx is a real error. */
export async function issueWhenReady(options, waitSeconds, retryMs = 2000) {
  const deadline = Date.now() + waitSeconds * 1000;
  for (;;) {
    try {
      return await issueMetricsKey(options);
    } catch (error) {
      const retriable = error instanceof TypeError || /HTTP 5\d\d/.test(String(error.message));
      if (!retriable || Date.now() + retryMs > deadline) throw error;
      await sleep(retryMs);
    }
  }
}

/** Writes beside the target, then renames, so Prometheus never reads half a key. */
export async function writeKeyFile(file, key) {
  const partial = `${file}.partial`;
  await writeFile(partial, `${key}\n`, { mode: 0o644 });
  await rename(partial, file);
}

async function main(env) {
  for (const name of ['MINIQUEUE_URL', 'MINIQUEUE_ADMIN_KEY', 'METRICS_KEY_FILE']) {
    if (!env[name]) throw new Error(`${name} is not set`);
  }
  const name = env.METRICS_CLIENT_NAME || 'prometheus';
  const options = { baseUrl: env.MINIQUEUE_URL, adminKey: env.MINIQUEUE_ADMIN_KEY, name };
  const key = await issueWhenReady(options, Number(env.METRICS_KEY_WAIT_SECONDS || 300));
  await writeKeyFile(env.METRICS_KEY_FILE, key);
  console.log(`metrics key of client ${name} written to ${env.METRICS_KEY_FILE}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.env).catch((error) => {
    console.error(`metrics-key: ${error.message}`);
    process.exit(1);
  });
}
