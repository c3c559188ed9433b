import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ConnectionError,
  ForbiddenError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  UnavailableError,
} from '@miniqueue/sdk';
import { describeError } from './errors';

describe('API failures in words', () => {
  it('lists the fields a 400 names', () => {
    const error = new BadRequestError({
      status: 400,
      message: 'name bad',
      errors: [
        { field: 'name', message: 'must match ^[a-z]+$' },
        { field: 'max_retries', message: 'must be ≤ 100' },
      ],
    });
    expect(describeError(error)).toBe('name: must match ^[a-z]+$; max_retries: must be ≤ 100');
  });

  it('uses the broker’s own message, as a sentence', () => {
    expect(describeError(new ConflictError({ status: 409, message: 'Topic orders already exists' }))).toBe('Topic orders already exists.');
    expect(describeError(new ForbiddenError({ status: 403, message: 'This needs the scope admin' }))).toBe('Not allowed: This needs the scope admin.');
    expect(describeError(new UnauthorizedError({ status: 401, message: 'Invalid, expired or revoked credential' }))).toBe(
      'Not signed in: Invalid, expired or revoked credential.',
    );
  });

  it('says what to do when the broker cannot answer', () => {
    expect(describeError(new ConnectionError({ status: 0, message: 'fetch failed' }))).toMatch(/Cannot reach the broker/);
    expect(describeError(new UnavailableError({ status: 503, message: 'Database unavailable' }))).toMatch(/unavailable right now/);
    expect(describeError(new RateLimitedError({ status: 429, message: 'slow down', retryAfterMs: 2500 }))).toBe('Too many requests. Try again in 3 s.');
    expect(describeError(new ServerError({ status: 500, message: 'Internal server error' }))).toBe('Internal server error.');
  });
});
