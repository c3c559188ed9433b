import { Flags, ux } from '@oclif/core';
import { CHECK_NAMES } from '../lib/smoke/names.js';
import type { CheckResult } from '../lib/smoke/types.js';
import { EXIT } from '../lib/failure.js';
import { onInterrupt } from '../lib/interrupt.js';
import { loadSdk } from '../lib/sdk.js';
import { bold, dim, red } from '../lib/style.js';
import { BrokerCommand } from '../base/brokerCommand.js';

export interface SmokeResult {
  url: string;
  ok: boolean;
  checks: CheckResult[];
  /** What could not be deleted at the end (it is named smoke-…). */
  cleanup_problems: string[];
}

/** An origin no deployment lists (.invalid never resolves). */
const DENIED_ORIGIN = 'https://smoke-check.invalid';

export default class Smoke extends BrokerCommand<typeof Smoke> {
  static summary = 'Check a deployed broker end to end: auth, scopes, publish/consume/ack, DLQ, idempotency, revocation, metrics, CORS, dashboard.';

  static description = `Run it after every deploy, with an admin key. It creates its own topics, queues and clients (named smoke-<random>), runs each check, prints one line per check, and deletes what it created, also when a check fails or on Ctrl-C. The exit code is 0 only when every check passed.

CORS: a preflight from --cors-denied-origin must be refused and, with --cors-origin, one from that origin allowed. Without --cors-origin only the broker's own origin is expected to work, and it needs no CORS (the dashboard it serves is same-origin), so a fresh quick start passes at any address. Point --cors-origin at an origin in the broker's CORS_ALLOWED_ORIGINS to check it, or --skip cors where CORS is off.`;

  static examples = [
    '<%= config.bin %> <%= command.id %> --url https://mq.example.com',
    '<%= config.bin %> <%= command.id %> --url http://localhost:8080 --json',
    '<%= config.bin %> <%= command.id %> --url https://mq.example.com --cors-origin https://ops.example.com',
    '<%= config.bin %> <%= command.id %> --url http://localhost:8080 --skip cors --skip dashboard',
  ];

  static flags = {
    'cors-origin': Flags.string({
      summary: "An origin the broker's CORS_ALLOWED_ORIGINS allows, to check. Default: none (the broker's own origin needs no CORS).",
    }),
    'cors-denied-origin': Flags.string({ summary: `An origin it must refuse. Default: ${DENIED_ORIGIN}.`, default: DENIED_ORIGIN }),
    skip: Flags.string({ summary: 'Leave out this check (repeatable).', options: CHECK_NAMES, multiple: true, default: [] }),
  };

  async run(): Promise<SmokeResult> {
    const connection = await this.connection();
    await this.broker(); // fails here, before anything is created, when there is no key
    const { url } = connection;
    // The checks are loaded when they run: oclif loads every command module at start-up.
    const [{ CHECKS }, { smokeRun }, { runCheck }] = await Promise.all([
      import('../lib/smoke/checks.js'),
      import('../lib/smoke/context.js'),
      import('../lib/smoke/runner.js'),
    ]);
    const run = smokeRun(await loadSdk(), {
      url,
      adminKey: connection.apiKey!,
      corsAllowed: this.flags['cors-origin'],
      corsDenied: this.flags['cors-denied-origin'],
    });
    const interrupt = onInterrupt();
    const checks: CheckResult[] = [];
    let cleanupProblems: string[];
    try {
      for (const check of CHECKS.filter((c) => !this.flags.skip.includes(c.name))) {
        if (interrupt.signal.aborted) break;
        const result = await runCheck(check, run.context);
        checks.push(result);
        this.log(line(result));
      }
    } finally {
      cleanupProblems = await run.cleanup();
      interrupt.dispose();
    }
    for (const problem of cleanupProblems) process.stderr.write(`${red('Cleanup failed:')} ${problem}\n`);
    const result = { url, ok: checks.every((c) => c.ok) && !interrupt.signal.aborted, checks, cleanup_problems: cleanupProblems };
    return this.finish(result);
  }

  private finish(result: SmokeResult): SmokeResult {
    const failed = result.checks.filter((c) => !c.ok).map((c) => c.name);
    if (result.ok) {
      this.logToStderr(`All ${result.checks.length} checks passed against ${result.url}.`);
      return result;
    }
    this.logToStderr(failed.length ? `${red(bold('Failed:'))} ${failed.join(', ')}` : 'Interrupted before every check ran.');
    if (this.jsonEnabled()) this.logJson(result);
    this.exit(EXIT.failure);
  }
}

function line(result: CheckResult): string {
  const mark = result.ok ? ux.colorize('green', 'PASS') : red(bold('FAIL'));
  return `${mark}  ${result.name.padEnd(19)}  ${result.detail} ${dim(`(${result.ms} ms)`)}`;
}
