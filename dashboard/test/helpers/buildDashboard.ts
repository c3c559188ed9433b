import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sdkEntry = fileURLToPath(new URL('../../../sdk/dist/index.js', import.meta.url));

/** Builds dashboard/dist, which the broker under test serves at `/`. */
export default async function setup() {
  if (!existsSync(sdkEntry)) {
    throw new Error('The SDK is not built: run `npm run build -w @miniqueue/sdk` first (the dashboard bundles it).');
  }
  // Vitest sets NODE_ENV=test, which Vite would bake into React as a development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, logLevel: 'error', configFile: `${root}/vite.config.ts` });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
