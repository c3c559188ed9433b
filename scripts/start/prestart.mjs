#!/usr/bin/env node
// `npm start` runs this first: build what changed (buildChanged.mjs says how), then say where
// the admin key is. The broker itself starts next (api/dist/start.js).
import { fileURLToPath } from 'node:url';
import { adminKeyNotice } from './adminKeyNotice.mjs';
import { buildIfChanged } from './buildChanged.mjs';
import { TARGETS } from './targets.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const started = Date.now();
const built = TARGETS.filter((target) => buildIfChanged(root, target)).length;
console.log(`[miniqueue] ${built === 0 ? 'nothing to build' : `built ${built} of ${TARGETS.length}`} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
console.log(`[miniqueue] ${adminKeyNotice()}`);
