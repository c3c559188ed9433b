/**
 * The checks of `miniqueue smoke`, in the order they run. Kept apart from the checks themselves,
 * which the command loads only when it runs, so that --skip can offer them at start-up.
 */
export const CHECK_NAMES = [
  'health',
  'auth',
  'scopes',
  'publish-consume-ack',
  'dead-letter',
  'idempotency',
  'revocation',
  'metrics',
  'cors',
  'dashboard',
] as const;
