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
const TRACESTATE_MEMBERS_MAX = 32;
/**
 * One tracestate list-member, key "=" value: the key lower-case letters, digits and `_ - * / @`
 * (the Level 2 grammar, which takes every Level 1 key too), the value printable ASCII without
 * `,` and `=`, not ending in a space; each at most 256 characters. Nothing else is allowed, which
 * keeps out what an HTTP client refuses to send (control characters, newlines, non-ASCII).
 */
const TRACESTATE_MEMBER = /^([a-z0-9][a-z0-9_\-*/@]{0,255})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
/** Optional whitespace around a member (RFC 7230 OWS). */
const OWS = /^[ \t]+|[ \t]+$/g;

export function isTraceparent(value: unknown): value is string {
  return typeof value === 'string' && TRACEPARENT_FORMAT.test(value);
}

/** A tracestate as the specification writes it: up to 32 members (empty ones allowed), each key once. */
export function isTracestate(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > TRACESTATE_MAX) return false;
  const keys = new Set<string>();
  for (const part of value.split(',')) {
    const member = part.replace(OWS, '');
    if (member === '') continue;
    const key = TRACESTATE_MEMBER.exec(member)?.[1];
    if (key === undefined || keys.has(key)) return false;
    keys.add(key);
  }
  return keys.size <= TRACESTATE_MEMBERS_MAX;
}

/**
 * The trace context of an HTTP request's `traceparent` / `tracestate` headers, as message headers,
 * or nothing when there is no valid traceparent (the specification says to ignore an invalid one);
 * a tracestate that is not valid is left out (the specification allows discarding it, and a
 * receiver must never fail a request over it).
 */
export function traceHeadersOf(request: { traceparent?: string | string[]; tracestate?: string | string[] }): Record<string, string> | undefined {
  const parent = request.traceparent;
  if (!isTraceparent(parent)) return undefined;
  const state = Array.isArray(request.tracestate) ? request.tracestate.join(',') : request.tracestate;
  return state && isTracestate(state) ? { [TRACEPARENT]: parent, [TRACESTATE]: state } : { [TRACEPARENT]: parent };
}

/**
 * A message's headers with its own trace context read as the specification says: an invalid
 * traceparent is ignored, and its tracestate with it ("if the vendor failed to parse traceparent,
 * it MUST NOT attempt to parse tracestate"); an invalid tracestate is dropped. Nothing is refused:
 * the message is stored without what is invalid, so no consumer, push or replay ever gets it.
 */
export function withValidTraceContext(headers: Record<string, string>): Record<string, string> {
  if (!(TRACEPARENT in headers) && !(TRACESTATE in headers)) return headers;
  const parentValid = isTraceparent(headers[TRACEPARENT]);
  if (parentValid && (!(TRACESTATE in headers) || isTracestate(headers[TRACESTATE]))) return headers;
  const rest = { ...headers };
  if (!parentValid) delete rest[TRACEPARENT];
  delete rest[TRACESTATE];
  return rest;
}

/**
 * The headers of a published message with the request's trace context added, unless the message
 * names a valid traceparent of its own (a batch item's own context wins over the request's).
 */
export function withTraceHeaders(headers: Record<string, string>, trace: Record<string, string> | undefined): Record<string, string> {
  if (!trace || isTraceparent(headers[TRACEPARENT])) return headers;
  // Its own invalid traceparent (or a tracestate without one) gives way to the request's context.
  return { ...withoutTraceHeaders(headers), ...trace };
}

/** Headers without the trace context: what an idempotency key's repeat must match (a retry has a new span). */
export function withoutTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (!(TRACEPARENT in headers) && !(TRACESTATE in headers)) return headers;
  const rest = { ...headers };
  for (const name of TRACE_HEADERS) delete rest[name];
  return rest;
}

/**
 * The trace headers a message carries (a valid traceparent, and its tracestate if valid), to send
 * on with it: a message stored before publishes were checked never makes a request fail.
 */
export function traceHeadersFrom(headers: Record<string, string>): Record<string, string> {
  return traceHeadersOf({ traceparent: headers[TRACEPARENT], tracestate: headers[TRACESTATE] }) ?? {};
}
