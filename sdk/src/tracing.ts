import type * as Otel from '@opentelemetry/api';

/**
 * Tracing through `@opentelemetry/api`, an optional peer dependency: when the application has it,
 * `publish()` makes a PRODUCER span and carries its context in the message's headers (W3C
 * `traceparent` / `tracestate`, through whatever propagator the application registered), and a
 * consumer runs each handler in a CONSUMER span that is a child of, and linked to, the context the
 * message carries. Without the package none of this runs: the import fails once and is not tried
 * again. With it but no tracer provider registered, the API's spans are no-ops and carry nothing.
 */

// A variable, so bundlers do not insist on the optional package.
const OTEL_API = '@opentelemetry/api';

let api: typeof Otel | null = null;
let loading: Promise<void> | undefined;

function loadTracing(): Promise<void> {
  loading ??= import(/* @vite-ignore */ OTEL_API).then(
    (module: typeof Otel & { default?: typeof Otel }) => {
      api = module.trace ? module : (module.default ?? null);
    },
    () => undefined,
  );
  return loading;
}

const TRACER = '@miniqueue/sdk';
const SYSTEM = { 'messaging.system': 'miniqueue' };

/**
 * Runs a publish to `topic` in a producer span; `send` gets the headers to publish with (the
 * span's context added, unless the caller gave a traceparent of its own, which is then kept).
 */
export async function traced<T extends { message_ids: string[] }>(
  topic: string,
  headers: Record<string, string> | undefined,
  send: (headers: Record<string, string> | undefined) => Promise<T>,
): Promise<T> {
  await loadTracing();
  const otel = api;
  if (!otel || headers?.traceparent) return send(headers);
  const parent = otel.context.active();
  const span = otel.trace.getTracer(TRACER).startSpan(
    `publish ${topic}`,
    {
      kind: otel.SpanKind.PRODUCER,
      attributes: { ...SYSTEM, 'messaging.operation.type': 'send', 'messaging.operation.name': 'publish', 'messaging.destination.name': topic },
    },
    parent,
  );
  if (!span.isRecording()) {
    span.end();
    return send(headers);
  }
  const carried = { ...headers };
  otel.propagation.inject(otel.trace.setSpan(parent, span), carried);
  try {
    const result = await send(carried);
    if (result.message_ids.length === 1) span.setAttribute('messaging.message.id', result.message_ids[0]);
    return result;
  } catch (error) {
    failed(otel, span, error);
    throw error;
  } finally {
    span.end();
  }
}

function failed(otel: typeof Otel, span: Otel.Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: otel.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** A handler's span: `run` calls the handler inside it, `end` closes it with how the message was settled. */
export interface ProcessSpan {
  run<T>(handler: () => T): T;
  end(outcome: 'acked' | 'requeued' | 'dead' | undefined, error?: unknown): void;
}

const UNTRACED: ProcessSpan = { run: (handler) => handler(), end: () => undefined };

/** The span of processing one message of `queue`: a child of the context its headers carry, and linked to it. */
export async function processSpan(queue: string, message: { message_id: string; headers: Record<string, string> }): Promise<ProcessSpan> {
  await loadTracing();
  const otel = api;
  if (!otel) return UNTRACED;
  const producer = otel.propagation.extract(otel.ROOT_CONTEXT, message.headers);
  const producerSpan = otel.trace.getSpanContext(producer);
  const span = otel.trace.getTracer(TRACER).startSpan(
    `process ${queue}`,
    {
      kind: otel.SpanKind.CONSUMER,
      attributes: {
        ...SYSTEM,
        'messaging.operation.type': 'process',
        'messaging.operation.name': 'process',
        'messaging.destination.name': queue,
        'messaging.message.id': message.message_id,
      },
      links: producerSpan ? [{ context: producerSpan }] : [],
    },
    producer,
  );
  if (!span.isRecording()) {
    span.end();
    return UNTRACED;
  }
  return {
    run: (handler) => otel.context.with(otel.trace.setSpan(producer, span), handler),
    end: (outcome, error) => {
      if (outcome) span.setAttribute('miniqueue.outcome', outcome);
      if (error !== undefined) failed(otel, span, error);
      span.end();
    },
  };
}
