import { performance } from 'node:perf_hooks';
import { CheckFailed, type Check, type CheckResult, type SmokeContext } from './types.js';

/** Runs one check; any error is its failure, with the reason it gives. */
export async function runCheck(check: Check, context: SmokeContext): Promise<CheckResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const detail = await check.run(context);
    return { name: check.name, ok: true, detail, ms: ms() };
  } catch (error) {
    const status = (error as { status?: number }).status;
    const reason = error instanceof CheckFailed ? error.message : `${status ? `the broker answered ${status}: ` : ''}${(error as Error).message}`;
    return { name: check.name, ok: false, detail: reason, ms: ms() };
  }
}
