export { MiniQueue } from './client.js';
export type { MiniQueueOptions, CallOptions, Credential } from './options.js';
export type { RetryOptions } from './http/retryPolicy.js';
export { defaultRetryPolicy, RETRYABLE_STATUSES } from './http/retryPolicy.js';
export type { FetchFunction } from './http/retryingFetch.js';
export type { PublishOptions, BatchMessage, ConsumeOptions, ReceiveOptions, NackOptions } from './resources/messages.js';
export type { CreateQueueOptions, ListMessagesOptions, QueueChanges, QueuesResource } from './resources/queues.js';
export type { ListDeadLettersOptions, ReplayAllOptions, DeadLetterFilterOptions, DeadLettersResource } from './resources/deadLetters.js';
export type { TopicsResource } from './resources/topics.js';
export type { PushResource, SetPushOptions } from './resources/push.js';
export { replayInfo, type ReplayInfo, type ReplayFrom, type ReplayHistoryOptions, type HistoryResource } from './resources/history.js';
export type { ClientsResource } from './resources/clients.js';
export type { DashboardResource, RatesOptions } from './resources/dashboard.js';
export type { AuthResource } from './resources/auth.js';
export type { OperationsResource } from './resources/operations.js';
export { Consumer } from './consumer/consumer.js';
export { ConsumerFatalError, type FatalReason } from './consumer/fatal.js';
export type {
  ConsumerOptions,
  MessageHandler,
  HandlerContext,
  HeartbeatOptions,
  ProcessedEvent,
  Outcome,
  ErrorContext,
  ErrorPhase,
  ConsumerEvents,
} from './consumer/types.js';
export { Monitor } from './monitor/monitor.js';
export type { MonitorOptions, MonitorStatus, MonitorClosed, MonitorEvents } from './monitor/types.js';
export { parseMonitorEvent, concernsQueue, EVENTS_DROPPED, CLOSE_CREDENTIAL_ENDED, MONITOR_VERBS, type MonitorEvent } from './monitor/events.js';
// The frames of /ws/v1/stream (asyncapi.yaml), for the broker that reads them and any other client.
export { STREAM_PATH, STREAM_SUBPROTOCOL, MAX_FRAMES_PER_MESSAGE, MAX_ACK_IDS, MAX_EXTEND_IDS, MAX_PREFETCH } from './stream/frames.js';
export type {
  ClientFrame,
  PublishFrame,
  SubscribeFrame,
  CreditFrame,
  UnsubscribeFrame,
  AckFrame,
  NackFrame,
  ExtendFrame,
  WatchFrame,
  UnwatchFrame,
  BrokerFrame,
  StreamLimits,
  ErrorFields,
} from './stream/frames.js';
export {
  MiniQueueError,
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  RetryableStatusError,
  RateLimitedError,
  UnavailableError,
  ServerError,
  ConnectionError,
  RequestTimeoutError,
  DeadLetterError,
  LeaseLostError,
} from './errors.js';
export type { MiniQueueErrorDetails } from './errors.js';
export { newIdempotencyKey } from './idempotency.js';
export {
  verifyPushSignature,
  constantTimeEqual,
  PushSignatureError,
  SIGNATURE_HEADER,
  type PushSignatureProblem,
  type VerifyPushOptions,
} from './webhooks/signature.js';
export { parsePushedMessage, type PushedMessage } from './webhooks/message.js';
export { pushHandler, type PushHandlerOptions, type NodeRequest, type NodeResponse } from './webhooks/nodeHandler.js';
export { NAME_PATTERN, NAME_MAX_LENGTH, SCOPE_PATTERN, isValidName, isValidScope, LIMITS, CLOSE_CODES } from './contract.js';
// The contract's models, field for field (snake_case, timestamps as Date).
export type * from './generated/models/index.js';
export { MessageStatus, ErrorCode, DeadReason } from './generated/models/index.js';
