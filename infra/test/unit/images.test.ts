import { describe, expect, it } from 'vitest';
import { assertPinnedImage } from '../../src/images.js';
import { postgresUrl } from '../../src/database.js';

describe('assertPinnedImage', () => {
  it('accepts a version tag or a digest', () => {
    expect(assertPinnedImage('ghcr.io/acme/miniqueue:1.4.2')).toBe('ghcr.io/acme/miniqueue:1.4.2');
    expect(assertPinnedImage('registry:5000/miniqueue:abc123')).toBe('registry:5000/miniqueue:abc123');
    const digest = `ghcr.io/acme/miniqueue@sha256:${'a'.repeat(64)}`;
    expect(assertPinnedImage(digest)).toBe(digest);
  });

  it('refuses an image that would not roll out on redeploy', () => {
    expect(() => assertPinnedImage('ghcr.io/acme/miniqueue')).toThrow(/no tag/);
    expect(() => assertPinnedImage('registry:5000/miniqueue')).toThrow(/no tag/);
    expect(() => assertPinnedImage('miniqueue:latest')).toThrow(/:latest/);
  });
});

describe('postgresUrl', () => {
  it('percent-encodes the password, so any password makes a valid URL', () => {
    const url = postgresUrl({ host: 'postgres', port: 5432, password: 'p@ss/w:rd?#' });
    expect(url).toBe('postgres://miniqueue:p%40ss%2Fw%3Ard%3F%23@postgres:5432/miniqueue');
    expect(decodeURIComponent(new URL(url).password)).toBe('p@ss/w:rd?#');
  });
});
