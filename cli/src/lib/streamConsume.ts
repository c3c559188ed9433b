import type { Message, MiniQueue } from '@miniqueue/sdk';

/**
 * Over the stream there is no empty answer: the queue holds nothing more for now when nothing
 * arrives this long after the last ack (the broker claims the next one as soon as it has the ack)
 * or, for the first message, after subscribing (the stream opens and the broker claims at once).
 */
export const SETTLED_IDLE_MS = 250;
export const FIRST_IDLE_MS = 750;
/** With --follow and no --count, messages pushed ahead of the one being printed. */
const FOLLOW_PREFETCH = 10;

export interface StreamConsumeOptions {
  count: number;
  /** Seconds to wait for the first message; with `follow`, messages are waited for until the signal. */
  waitSeconds: number;
  follow: boolean;
  signal: AbortSignal;
  /** A message was delivered: shown before it is acked. */
  shown(message: Message): void;
  /** Its ack was answered: `acked` false when the broker refused it (the message is then no longer ours). */
  settled(message: Message, acked: boolean, error?: unknown): void;
}

/**
 * Consumes through the SDK's consumer over the client's stream, one message at a time, each acked
 * once shown. With a --count, the prefetch is 1 and the last message's unsubscribe is sent before
 * its ack (the ack of a turn goes out after its other frames), so the broker never pushes one more
 * than asked. Resolves once done; rejects with the broker's refusal of the subscription
 * (unknown queue, missing scope), which retrying will not change.
 */
export async function consumeOverStream(broker: MiniQueue, queue: string, options: StreamConsumeOptions): Promise<void> {
  const { count, follow } = options;
  let seen = 0;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let finish: (error?: unknown) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => (finish = (error) => (error === undefined ? resolve() : reject(error))));
  const idleFor = (ms: number) => {
    clearTimeout(idle);
    if (!follow) idle = setTimeout(() => finish(), ms);
  };
  const consumer = broker.consumer(
    queue,
    (message) => {
      clearTimeout(idle);
      if (++seen >= count) finish();
      options.shown(message);
    },
    { concurrency: 1, prefetch: Number.isFinite(count) ? 1 : FOLLOW_PREFETCH, waitSeconds: follow ? 20 : options.waitSeconds },
  );
  consumer.on('processed', ({ message }) => {
    options.settled(message, true);
    if (seen < count) idleFor(SETTLED_IDLE_MS);
  });
  consumer.on('error', (error, context) => {
    if (context.phase === 'ack') return options.settled(context.message, false, error);
    if (context.phase === 'claim' && isRefusal(error)) finish(error);
  });
  // 401, 403, an unknown queue: the consumer has stopped; the broker's own error says why.
  consumer.on('fatal', (error) => finish(error.cause));
  const onAbort = () => finish();
  options.signal.addEventListener('abort', onAbort, { once: true });
  idleFor(Math.max(FIRST_IDLE_MS, options.waitSeconds * 1000));
  consumer.start();
  try {
    await finished;
  } finally {
    clearTimeout(idle);
    options.signal.removeEventListener('abort', onAbort);
    await consumer.stop();
  }
}

/** A status that trying again will not change (404 queue_not_found, 403 scope_required…). */
function isRefusal(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 429;
}
