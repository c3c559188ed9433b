import { ROOT_CONTEXT, SpanKind, SpanStatusCode, propagation, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/**
 * The broker's spans, named and attributed after OpenTelemetry's messaging conventions
 * (`messaging.system`, `messaging.operation.type`/`.name`, `messaging.destination.name`,
 * `messaging.message.id`). Each is a child of the context the message carries in its headers
 * (traceContext.ts), so publish, delivery, push and settling fall in the producer's trace.
 * Kinds: SERVER for what answers a client (publish, deliver, ack, nack), CLIENT for a push.
 *
 * Off (no exporter configured: tracing/sdk.ts), `tracing.enabled` is false and every caller
 * tests that one flag before touching anything here: the hot paths pay nothing else.
 */
export const tracing = { enabled: false };

const SYSTEM = 'miniqueue';
const tracer = () => trace.getTracer('miniqueue');

/** The context carried by a message's headers, or the root when they carry none. */
export function contextOfHeaders(headers: Record<string, string> | null | undefined): Context {
  return headers ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT;
}

const attributes = (operation: 'send' | 'receive' | 'settle', name: string, destination: string, extra: Attributes = {}): Attributes => ({
  'messaging.system': SYSTEM,
  'messaging.operation.type': operation,
  'messaging.operation.name': name,
  'messaging.destination.name': destination,
  ...extra,
});

export function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * A publish to `topic`, as a child of the producer's context in `headers`; the headers to store
 * carry this span's context instead, so what follows the message hangs under the broker's publish.
 */
export function startPublishSpan(topic: string, headers: Record<string, string>): { span: Span; headers: Record<string, string> } {
  const parent = contextOfHeaders(headers);
  const span = tracer().startSpan(`publish ${topic}`, { kind: SpanKind.SERVER, attributes: attributes('send', 'publish', topic) }, parent);
  const carried = { ...headers };
  propagation.inject(trace.setSpan(parent, span), carried);
  return { span, headers: carried };
}

/** What a publish stored: the ids of its copies (one per queue). */
export function endPublishSpan(span: Span, outcome: { message_ids: string[]; queues: string[]; duplicate: boolean } | Error): void {
  if (outcome instanceof Error) failed(span, outcome);
  else {
    if (outcome.message_ids.length === 1) span.setAttribute('messaging.message.id', outcome.message_ids[0]);
    span.setAttributes({
      'messaging.batch.message_count': outcome.message_ids.length,
      'miniqueue.message_ids': outcome.message_ids,
      'miniqueue.queues': outcome.queues,
      'miniqueue.duplicate': outcome.duplicate,
    });
  }
  span.end();
}

/** A message a span is about: its id, queue, and the trace context it carries (its headers, or just their trace headers). */
export interface TracedRow {
  id: string;
  queue_name: string;
  trace: Record<string, string> | null;
}

/** Milliseconds since 1970 with sub-millisecond precision: a span's start time. */
export const now = () => performance.timeOrigin + performance.now();

/** One finished span per message that `operation` touched, each under its message's own context. */
export function recordSpans(rows: (TracedRow & { attributes?: Attributes })[], operation: 'receive' | 'settle', name: string, startTime: number): void {
  const end = now();
  for (const row of rows) {
    const span = tracer().startSpan(
      `${name} ${row.queue_name}`,
      {
        kind: SpanKind.SERVER,
        startTime,
        attributes: attributes(operation, name, row.queue_name, { 'messaging.message.id': row.id, ...row.attributes }),
      },
      contextOfHeaders(row.trace),
    );
    span.end(end);
  }
}

/**
 * A push of one message to its queue's endpoint, under the message's context; `headers` get the
 * push span's traceparent so the endpoint's own spans join the trace.
 */
export function startPushSpan(row: TracedRow, url: string, headers: Record<string, string>): Span {
  const parent = contextOfHeaders(row.trace);
  const span = tracer().startSpan(
    `push ${row.queue_name}`,
    {
      kind: SpanKind.CLIENT,
      attributes: attributes('send', 'push', row.queue_name, { 'messaging.message.id': row.id, 'server.address': new URL(url).hostname }),
    },
    parent,
  );
  propagation.inject(trace.setSpan(parent, span), headers);
  return span;
}
