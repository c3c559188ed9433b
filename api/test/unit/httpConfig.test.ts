import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('HTTP bounds, checked at boot', () => {
  it('default to 10 s for headers, 30 s for a whole request, 5 s idle keep-alive, 100 long polls per credential', () => {
    const config = loadConfig({});
    expect(config.http).toEqual({ headersTimeoutSeconds: 10, requestTimeoutSeconds: 30, keepAliveTimeoutSeconds: 5 });
    expect(config.longPollsPerCredential).toBe(100);
  });

  it('refuses a header timeout longer than the request timeout, and bounds that are not whole seconds', () => {
    expect(() => loadConfig({ MINIQUEUE_HTTP_HEADERS_TIMEOUT_SECONDS: '40' })).toThrow(/MINIQUEUE_HTTP_HEADERS_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ MINIQUEUE_HTTP_REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(/MINIQUEUE_HTTP_REQUEST_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ MINIQUEUE_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1.5' })).toThrow(/MINIQUEUE_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ MINIQUEUE_LONG_POLLS_PER_CREDENTIAL: '0' })).toThrow(/MINIQUEUE_LONG_POLLS_PER_CREDENTIAL/);
  });
});
