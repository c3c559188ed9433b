import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { dashboardLocation } from '../../src/http/routes/auth.js';
import { callbackUrl } from '../../src/auth/github.js';

const github = { GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' };

describe('sign-in configuration, checked at boot', () => {
  it('needs the client id and secret together', () => {
    expect(() => loadConfig({ GITHUB_CLIENT_ID: 'id' })).toThrow(/GITHUB_CLIENT_SECRET/);
    expect(() => loadConfig({ GITHUB_CLIENT_SECRET: 'secret' })).toThrow(/GITHUB_CLIENT_ID/);
    expect(loadConfig(github).github).toMatchObject({ clientId: 'id', clientSecret: 'secret' });
  });

  it('refuses URLs that are not http(s)', () => {
    for (const name of ['GITHUB_CALLBACK_URL', 'MINIQUEUE_DASHBOARD_URL', 'GITHUB_URL']) {
      expect(() => loadConfig({ ...github, [name]: 'javascript:alert(1)' })).toThrow(new RegExp(name));
    }
  });

  it('reads MINIQUEUE_ADMINS as lowercased GitHub logins, and refuses what cannot be one', () => {
    expect(loadConfig({ MINIQUEUE_ADMINS: ' Alice, bob-2 ,' }).admins).toEqual(['alice', 'bob-2']);
    expect(() => loadConfig({ MINIQUEUE_ADMINS: '@alice' })).toThrow(/MINIQUEUE_ADMINS/);
    expect(() => loadConfig({ MINIQUEUE_ADMINS: 'alice bob' })).toThrow(/MINIQUEUE_ADMINS/);
  });

  it('refuses sign-in that nobody could complete', () => {
    expect(() => loadConfig({ ...github, MINIQUEUE_PUBLIC_VIEWER: 'false' })).toThrow(/MINIQUEUE_ADMINS/);
    expect(loadConfig({ ...github, MINIQUEUE_PUBLIC_VIEWER: 'false', MINIQUEUE_ADMINS: 'alice' }).publicViewer).toBe(false);
  });

  it('refuses CORS origins with a path, which would never match', () => {
    expect(() => loadConfig({ CORS_ALLOWED_ORIGINS: 'http://localhost:5173/' })).toThrow(/CORS_ALLOWED_ORIGINS/);
    expect(loadConfig({ CORS_ALLOWED_ORIGINS: 'https://a.example, https://*.b.example' }).corsAllowedOrigins).toEqual([
      'https://a.example',
      'https://*.b.example',
    ]);
    expect(loadConfig({ CORS_ALLOWED_ORIGINS: '' }).corsAllowedOrigins).toEqual([]);
  });

  it('has generous rate limits by default, and validates them', () => {
    expect(loadConfig({}).rateLimit).toEqual({ enabled: true, perSecond: 500, burst: 1000, anonymousPerSecond: 20, anonymousBurst: 100 });
    expect(() => loadConfig({ MINIQUEUE_RATE_LIMIT_PER_SECOND: '0' })).toThrow(/MINIQUEUE_RATE_LIMIT_PER_SECOND/);
    expect(() => loadConfig({ MINIQUEUE_RATE_LIMIT_BURST: '1.5' })).toThrow(/MINIQUEUE_RATE_LIMIT_BURST/);
  });
});

describe('redirect targets come from configuration only', () => {
  it('defaults the callback to this server on localhost', () => {
    expect(callbackUrl(loadConfig({ ...github, PORT: '9090' }))).toBe('http://localhost:9090/api/v1/auth/github/callback');
    expect(callbackUrl(loadConfig({ ...github, GITHUB_CALLBACK_URL: 'https://mq.example.com/api/v1/auth/github/callback' }))).toBe(
      'https://mq.example.com/api/v1/auth/github/callback',
    );
  });

  it('puts the login code in the fragment of the dashboard URL', () => {
    expect(dashboardLocation('https://dash.example.com/app?x=1', 'lc_abc')).toBe('https://dash.example.com/app?x=1#login_code=lc_abc');
    expect(dashboardLocation(undefined, 'lc_abc')).toBe('/#login_code=lc_abc');
  });
});
