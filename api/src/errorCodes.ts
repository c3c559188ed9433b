/**
 * The machine-readable `code` of every error body: stable names a program can branch on, where
 * `message` is English for people and may change. openapi.yaml (`ErrorCode`) is the definition;
 * test/http/errorCodes.test.ts fails when this list and the contract part ways.
 */
export const ERROR_CODES = [
  // 400
  'validation_failed',
  'unknown_scope',
  'signin_state_invalid',
  'ordering_key_required',
  'push_target_refused',
  // 401
  'unauthenticated',
  'login_code_invalid',
  'signin_refused',
  // 403
  'scope_required',
  'admin_required',
  'session_required',
  'origin_not_allowed',
  // 404
  'route_not_found',
  'topic_not_found',
  'queue_not_found',
  'message_not_found',
  'client_not_found',
  'websocket_endpoint_not_found',
  'push_endpoint_not_found',
  // 405
  'method_not_allowed',
  // 409
  'topic_exists',
  'queue_exists',
  'client_exists',
  'topic_has_queues',
  'idempotency_conflict',
  'message_not_unacked',
  'message_not_dead',
  'lease_lost',
  'history_not_retained',
  'last_admin',
  // 413, 415
  'payload_too_large',
  'unsupported_media_type',
  // 429
  'rate_limited',
  'long_poll_limit',
  'queue_full',
  // 500, 503
  'internal_error',
  'database_unavailable',
  'github_not_configured',
  'github_unreachable',
  'shutting_down',
  'push_not_configured',
  'overloaded',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The code of an error that says no more than its status: hapi's own, and plain refusals. */
export function codeForStatus(status: number): ErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'validation_failed');
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'scope_required',
  404: 'route_not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'database_unavailable',
};
