import type * as Sdk from '@miniqueue/sdk';
import { Failure } from './failure.js';

let loaded: Promise<typeof Sdk> | undefined;

/**
 * The SDK is imported on first use rather than at the top of each command, so that `--help`,
 * which loads every command, works in a fresh clone before the SDK has been built.
 */
export function loadSdk(): Promise<typeof Sdk> {
  loaded ??= import('@miniqueue/sdk').catch((error: NodeJS.ErrnoException) => {
    loaded = undefined;
    if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new Failure('The MiniQueue SDK is not built yet', 'Build it once with `npm run build -w @miniqueue/sdk`.');
  });
  return loaded;
}
