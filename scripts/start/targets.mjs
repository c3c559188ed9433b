// What `npm start` builds, in order, and what each is built from. The dashboard bundles the SDK,
// so the SDK's sources are among its inputs: a changed SDK rebuilds the dashboard too, while an
// SDK rebuilt from the same sources (`npm run typecheck` and `npm test` build it first) does not.
// The signatures live in .tmp/ (ignored by git), outside the outputs, which other scripts replace;
// a missing output is built whatever its signature says.
import { createRequire } from 'node:module';

const shared = ['package-lock.json', 'tsconfig.base.json'];
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const sdkInputs = ['sdk/src', 'sdk/scripts/build.mjs', 'sdk/package.json', 'sdk/tsconfig.json'];
const stamp = (name) => `.tmp/build/${name}.signature`;

export const TARGETS = [
  {
    workspace: '@miniqueue/sdk',
    inputs: [...shared, ...sdkInputs],
    output: 'sdk/dist/index.js',
    stamp: stamp('sdk'),
  },
  {
    workspace: '@miniqueue/dashboard',
    inputs: [
      ...shared,
      ...sdkInputs,
      'dashboard/src',
      'dashboard/public',
      'dashboard/index.html',
      'dashboard/vite.config.ts',
      'dashboard/package.json',
      'dashboard/tsconfig.json',
    ],
    output: 'dashboard/dist/index.html',
    stamp: stamp('dashboard'),
  },
  {
    workspace: '@miniqueue/api',
    inputs: [...shared, 'api/src', 'api/package.json', 'api/tsconfig.build.json'],
    output: 'api/dist/start.js',
    stamp: stamp('api'),
    // The api's build (tsc -p tsconfig.build.json), made incremental: after a change to a few
    // files tsc checks and emits those and their dependents, 11-15 s instead of 35-38 s here.
    command: [process.execPath, tsc, '-p', 'api/tsconfig.build.json', '--incremental', '--tsBuildInfoFile', '.tmp/build/api.tsbuildinfo'],
    cache: '.tmp/build/api.tsbuildinfo',
  },
];
