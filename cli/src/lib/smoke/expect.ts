import { CheckFailed } from './types.js';

/** Fails the check with `reason` unless `condition` holds. */
export function ensure(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new CheckFailed(reason);
}

/** Runs `call`, which must be refused with `status`; anything else fails the check, named by `what`. */
export async function refused(what: string, status: number, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    const got = (error as { status?: number }).status;
    if (got === status) return;
    throw new CheckFailed(`${what}: expected ${status}, got ${got === 0 ? 'no answer' : got} (${(error as Error).message})`);
  }
  throw new CheckFailed(`${what}: expected ${status}, but it was allowed`);
}

/** Runs `call`, which must succeed; a failure names `what` and the broker's answer. */
export async function step<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CheckFailed) throw error;
    const status = (error as { status?: number }).status;
    throw new CheckFailed(`${what}: ${status ? `${status} ` : ''}${(error as Error).message}`);
  }
}
