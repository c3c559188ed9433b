#!/usr/bin/env node
import { execute } from '@oclif/core';
import { oclifOptions } from './oclif-options.js';

// A reader that stops early (`miniqueue tail --json | head -1`) closes the pipe; that ends the command.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

await execute({ loadOptions: await oclifOptions() });
