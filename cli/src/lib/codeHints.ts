import type { ErrorCode } from '@miniqueue/sdk';

/**
 * What to do about each of the broker's error codes (openapi.yaml's ErrorCode), so a failure says
 * more than its status class does. Keyed by every code: a code added to the contract does not
 * compile here until it has a hint. `null` for the codes whose hint depends on where the key came
 * from or what it can do (brokerErrors.ts works those out).
 */
export const CODE_HINTS: Record<ErrorCode, string | null> = {
  validation_failed: null,
  unknown_scope: 'Scopes are admin, view, publish:TOPIC and consume:QUEUE (a name, or a prefix ending in *).',
  signin_state_invalid: 'The GitHub sign-in took too long or was opened twice; start it again from the dashboard.',
  ordering_key_required:
    'A queue bound to this topic requires an ordering key: publish with --ordering-key KEY (with --file, an "ordering_key" on each line), or turn it off with `miniqueue queues:update QUEUE --no-require-ordering-key`.',
  push_target_refused:
    'A push endpoint must be an https:// URL without credentials, on an address the broker may reach (not loopback or a private network, unless the broker allows it).',
  unauthenticated: null,
  login_code_invalid: 'Login codes are good for one use and a few minutes: ask the dashboard for a new one.',
  signin_refused: 'GitHub did not complete the sign-in; try again, and allow the MiniQueue app when GitHub asks.',
  scope_required: null,
  admin_required: 'Only the GitHub logins in MINIQUEUE_ADMINS may sign in to this dashboard; ask an admin to add yours.',
  session_required: 'API keys are not logged out: revoke the client with `miniqueue clients:revoke NAME`, or forget it here with `miniqueue logout`.',
  origin_not_allowed: "Add the page's origin to the broker's CORS_ALLOWED_ORIGINS, or open the dashboard the broker serves itself.",
  route_not_found: 'Is this URL a MiniQueue broker of this version? Check --url; `miniqueue health` shows its version.',
  topic_not_found: '`miniqueue topics:list` shows the topics; `miniqueue topics:create NAME` makes one.',
  queue_not_found: '`miniqueue queues:list` shows the queues; `miniqueue queues:create NAME --topic TOPIC` makes one.',
  message_not_found:
    '`miniqueue messages:list QUEUE` and `miniqueue dlq:list` show message ids; an acked message is kept only for the acked retention of its queue.',
  client_not_found: '`miniqueue clients:list` shows the registered clients (a revoked one is gone for good).',
  websocket_endpoint_not_found: 'Is this URL a MiniQueue broker of this version? Check --url; `miniqueue health` shows its version.',
  push_endpoint_not_found: 'The queue has no push endpoint: give it one with `miniqueue queues:push:set QUEUE https://…`.',
  method_not_allowed: 'Is this URL a MiniQueue broker of this version? Check --url; `miniqueue health` shows its version.',
  topic_exists: 'Pick another name; `miniqueue topics:list` shows the existing ones.',
  queue_exists: 'Pick another name; `miniqueue queues:list` shows the existing ones.',
  client_exists: 'Pick another name, or give that client a new key with `miniqueue clients:rotate NAME`.',
  topic_has_queues: '`miniqueue topics:list` shows the queues bound to each topic; delete them with `miniqueue queues:delete`.',
  idempotency_conflict: 'A key stands for one message: send a new --idempotency-key for a different topic, payload or headers.',
  message_not_unacked: 'Only a claimed (UNACKED) message can be acked, nacked or extended; `miniqueue messages:list QUEUE` shows its status.',
  message_not_dead: 'Only dead messages can be replayed or deleted; `miniqueue dlq:list` shows them, `miniqueue messages:get ID` where this one is.',
  lease_lost:
    'Only the consumer holding a message (same key, same --instance) can ack, nack or extend it, until it is redelivered; `miniqueue messages:list QUEUE` shows its status.',
  history_not_retained:
    'History reaches back only as far as the queue keeps acked messages: start later (the message says the earliest start), or keep more with `miniqueue queues:update QUEUE --acked-retention 168` (hours) for next time.',
  last_admin:
    'Some client must keep the admin scope: give another client admin first (`miniqueue clients:update NAME --scope admin`, or `miniqueue clients:create`), then change or revoke this one.',
  payload_too_large: 'Send a smaller payload; the broker sets the limit (MINIQUEUE_MAX_PAYLOAD_BYTES, 256 KiB by default).',
  unsupported_media_type: 'Request bodies are JSON (Content-Type: application/json); is this URL a MiniQueue broker?',
  rate_limited: null,
  long_poll_limit:
    'This key has as many long polls waiting as the broker allows (MINIQUEUE_LONG_POLLS_PER_CREDENTIAL): stop some consumers, give them keys of their own, or wait with --wait 0.',
  queue_full:
    'The queue is at its max_messages or max_bytes: consume (and ack) from it, try again after Retry-After, or raise its bound with `miniqueue queues:update QUEUE --max-messages N`.',
  internal_error: 'The broker failed; try again shortly. Its logs have the details.',
  database_unavailable: 'The broker cannot reach its database now; try again shortly, and check the database if it lasts.',
  github_not_configured: 'GitHub sign-in needs GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET on the broker; use an API key meanwhile (`miniqueue login`).',
  github_unreachable: 'The broker cannot reach GitHub now; try again shortly, or use an API key (`miniqueue login`).',
  shutting_down: 'This broker instance is shutting down; try again in a moment (another instance, or this one restarted, will answer).',
  push_not_configured:
    'Push endpoints need MINIQUEUE_PUSH_SECRET_KEY on the broker (32 random bytes, base64url: `openssl rand -base64 32 | tr +/ -_`); restart the broker with it set.',
  overloaded:
    'The broker has more requests waiting for its database than it holds (MINIQUEUE_GROUP_COMMIT_MAX_WAITING); nothing was done; try again in a moment, or send fewer at once.',
};

/** The hint for a code the contract knows; undefined for none or one from a newer broker. */
export function codeHint(code: string | null | undefined): string | null | undefined {
  return code && Object.hasOwn(CODE_HINTS, code) ? CODE_HINTS[code as ErrorCode] : undefined;
}
