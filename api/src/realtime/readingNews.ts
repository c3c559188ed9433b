import type { Pool } from '../db/pool.js';
import { wsReadingNotify } from '../db/queries/notification.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import type { WsReadingEvent } from './channels.js';
import { chunkPayloads } from './notificationSender.js';

/** Payloads per statement, and at most this many waiting (only a database that stopped answering fills it). */
const PAYLOADS_PER_STATEMENT = 100;
const MAX_WAITING = 10_000;

/**
 * Tells the dispatcher, wherever it runs, that a consumer socket here stopped reading or reads
 * again (NOTIFY miniqueue_ws_reading; every instance hears it, only the dispatcher acts). One
 * statement at a time, in the order the news came: a socket's "reads again" sent on a second
 * connection could commit before its "stopped reading", and leave it passed over while it reads.
 * Like every notification a hint: a failed send is logged, not retried.
 */
export class ReadingNews implements Service {
  readonly name = 'reading-news';
  private readonly life = new Lifecycle(this.name);
  private waiting: string[] = [];
  /** The sending in progress, if any: a stop waits for it. */
  private sending?: Promise<void>;

  constructor(
    private readonly pool: Pool,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  tell(event: WsReadingEvent): void {
    if (this.life.stopped) return;
    // A notification holds at most about 7,500 bytes: a long list of ids is split.
    const payloads = event.ids.length === 0 ? [JSON.stringify(event)] : chunkPayloads(event.ids, (ids) => ({ ...event, ids }));
    if (this.waiting.length + payloads.length > MAX_WAITING) {
      this.log(`consumer socket news waits too long; the news of ${event.id} in ${event.queue} dropped`);
      return;
    }
    this.waiting.push(...payloads);
    // Everything told in this turn of the event loop leaves in one statement.
    this.sending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.send());
  }

  start(): Promise<void> {
    return this.life.start();
  }

  stop(): Promise<void> {
    return this.life.stop(() => this.sending);
  }

  health() {
    return this.life.health();
  }

  private async send(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, PAYLOADS_PER_STATEMENT);
      try {
        await wsReadingNotify(this.pool, batch);
      } catch (error) {
        this.log(`could not tell the dispatcher of consumer sockets that stopped or resumed reading; ${batch.length} notifications dropped`, error);
      }
    }
    this.sending = undefined;
  }
}
