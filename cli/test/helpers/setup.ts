import { register } from 'tsx/esm/api';

// oclif imports the command files (.ts) with Node's own import(), which vitest does not transform;
// tsx teaches Node to load them, as bin/run.js does outside the tests.
register();
