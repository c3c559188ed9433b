import { describe, expect, it } from 'vitest';
import { resolveConnection } from '../../src/lib/connection.js';
import { Failure } from '../../src/lib/failure.js';

const saved = {
  current: 'local',
  profiles: {
    local: { url: 'http://localhost:8080/', apiKey: 'mq_local' },
    prod: { url: 'https://mq.example.com', apiKey: 'mq_prod' },
  },
};

describe('resolveConnection', () => {
  it('defaults to the current profile', () => {
    expect(resolveConnection({}, saved)).toEqual({ url: 'http://localhost:8080', apiKey: 'mq_local', profile: 'local', keySource: 'profile' });
  });

  it('a named profile wins over the current one', () => {
    expect(resolveConnection({ profile: 'prod' }, saved)).toMatchObject({ url: 'https://mq.example.com', apiKey: 'mq_prod' });
  });

  it('a key flag wins over the profile key', () => {
    expect(resolveConnection({ 'api-key': 'mq_flag' }, saved)).toMatchObject({ apiKey: 'mq_flag', keySource: 'flag' });
  });

  it("never pairs a profile's key with another URL", () => {
    expect(resolveConnection({ url: 'https://evil.example.com' }, saved)).toEqual({
      url: 'https://evil.example.com',
      profile: 'local',
      keySource: 'none',
    });
  });

  it('the same URL written differently still matches its profile', () => {
    expect(resolveConnection({ url: 'http://localhost:8080' }, saved).apiKey).toBe('mq_local');
  });

  it('with nothing saved: localhost:8080 and no key', () => {
    expect(resolveConnection({}, { profiles: {} })).toEqual({ url: 'http://localhost:8080', profile: undefined, keySource: 'none' });
  });

  it('an unknown profile or a bad URL is a usage error', () => {
    expect(() => resolveConnection({ profile: 'nope' }, saved)).toThrow(Failure);
    expect(() => resolveConnection({ url: 'localhost:8080' }, saved)).toThrow(/Not an http\(s\) URL/);
    expect(() => resolveConnection({ url: 'not a url' }, saved)).toThrow(/Not a URL/);
  });
});
