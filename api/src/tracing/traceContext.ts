/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) as MiniQueue carries it: in the message's
 * own headers, under the header names the specification gives, as AMQP and Kafka clients carry it.
 * A message therefore takes its producer's context to every consumer (HTTP, stream, push) and into
 * the dead-letter queue and replays, with no column of its own.
 */
export const TRACEPARENT = 'traceparent';
export const TRACESTATE = 'tracestate';
export const TRACE_HEADERS: readonly string[] = [TRACEPARENT, TRACESTATE];

/** version-traceid-parentid-flags; version ff and all-zero ids are invalid. */
const TRACEPARENT_FORMAT = /^(?!ff)[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
/** The specification's limit for tracestate (32 members of at most 256 characters: 512 in practice). */
const TRACESTATE_MAX = 512;

export function isTraceparent(value: unknown): value is string {
  return typeof value === 'string' && TRACEPARENT_FORMAT.test(value);
}

/**
 * The trace context of an HTTP request's `traceparent` / `tracestate` headers, as message headers,
 * or nothing when there is no valid traceparent (the specification says to ignore an invalid one).
 */
export function traceHeadersOf(request: { traceparent?: string | string[]; tracestate?: string | string[] }): Record<string, string> | undefined {
  const parent = request.traceparent;
  if (!isTraceparent(parent)) return undefined;
  const state = Array.isArray(request.tracestate) ? request.tracestate.join(',') : request.tracestate;
  return state && state.length <= TRACESTATE_MAX ? { [TRACEPARENT]: parent, [TRACESTATE]: state } : { [TRACEPARENT]: parent };
}

/**
 * The headers of a published message with the request's trace context added, unless the message
 * names a traceparent of its own (a batch item's own context wins over the request's).
 */
export function withTraceHeaders(headers: Record<string, string>, trace: Record<string, string> | undefined): Record<string, string> {
  if (!trace || TRACEPARENT in headers) return headers;
  return { ...headers, ...trace };
}

/** Headers without the trace context: what an idempotency key's repeat must match (a retry has a new span). */
export function withoutTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (!(TRACEPARENT in headers) && !(TRACESTATE in headers)) return headers;
  const rest = { ...headers };
  for (const name of TRACE_HEADERS) delete rest[name];
  return rest;
}

/** The trace headers a message carries (a valid traceparent, and its tracestate), to send on with it. */
export function traceHeadersFrom(headers: Record<string, string>): Record<string, string> {
  return traceHeadersOf({ traceparent: headers[TRACEPARENT], tracestate: headers[TRACESTATE] }) ?? {};
}
