import {
  BadRequestError,
  ConnectionError,
  ForbiddenError,
  MiniQueueError,
  RateLimitedError,
  RequestTimeoutError,
  UnauthorizedError,
  UnavailableError,
} from '@miniqueue/sdk';

/** An API failure in words a person can act on. */
export function describeError(error: unknown): string {
  if (error instanceof RequestTimeoutError) return 'The broker did not answer in time. Try again.';
  if (error instanceof ConnectionError) return 'Cannot reach the broker. Check that it is running, then try again.';
  if (error instanceof BadRequestError && error.errors?.length) {
    return error.errors.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  }
  if (error instanceof UnauthorizedError) return `Not signed in: ${sentence(error.message)}`;
  if (error instanceof ForbiddenError) return `Not allowed: ${sentence(error.message)}`;
  if (error instanceof RateLimitedError) {
    const seconds = Math.ceil((error.retryAfterMs ?? 1000) / 1000);
    return `Too many requests. Try again in ${seconds} s.`;
  }
  if (error instanceof UnavailableError) return 'The broker or its database is unavailable right now. Try again shortly.';
  if (error instanceof MiniQueueError) return sentence(error.message);
  if (error instanceof Error) return sentence(error.message);
  return 'Something went wrong.';
}

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);
