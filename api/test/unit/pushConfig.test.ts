import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('MINIQUEUE_PUSH_SECRET_KEY, checked at boot', () => {
  it('leaves push off when unset or empty (docker compose passes an optional variable left out of .env as empty)', () => {
    expect(loadConfig({}).push.secretKey).toBeUndefined();
    expect(loadConfig({ MINIQUEUE_PUSH_SECRET_KEY: '' }).push.secretKey).toBeUndefined();
  });

  it('takes 32 bytes in base64url and refuses anything else', () => {
    expect(loadConfig({ MINIQUEUE_PUSH_SECRET_KEY: 'A'.repeat(43) }).push.secretKey).toHaveLength(32);
    expect(() => loadConfig({ MINIQUEUE_PUSH_SECRET_KEY: 'too-short' })).toThrow(/MINIQUEUE_PUSH_SECRET_KEY/);
  });
});
