#!/usr/bin/env node
// The commands are TypeScript and run from source through tsx, so a fresh clone needs no build step.
import { register } from 'tsx/esm/api';
import { execute } from '@oclif/core';

// A reader that stops early (`miniqueue tail --json | head -1`) closes the pipe; that ends the command.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

register();
await execute({ dir: import.meta.url });
