import Joi from 'joi';
import type { ObjectSchema } from 'joi';
import { ValidationError } from '../errors.js';
import { problemsOfValue, validationErrorOf } from '../http/validationFailures.js';
import { quickFrame } from './quickFrames.js';
import { MAX_ACK_IDS, MAX_EXTEND_IDS, MAX_FRAMES_PER_MESSAGE, MAX_PREFETCH, type ClientFrame } from '@miniqueue/sdk';
import {
  bodyBoolean,
  bodyInteger,
  delaySeconds,
  expiresInSeconds,
  headers,
  idempotencyKey,
  messageId,
  name,
  orderingKey,
  priority,
  groupKey,
  storableText,
} from '../http/schemas.js';

/**
 * The frames a client sends on a stream, checked with the same field rules as the HTTP routes that
 * do the same (schemas.ts), so a frame is refused exactly where the request would be. Their types
 * and bounds are the SDK's (written once, for both sides); the frames the broker sends are built in
 * session.ts; asyncapi.yaml describes both.
 */

/** As the HTTP nack's reason: a line for people reading dead letters. */
const NACK_REASON_MAX = 500;

export type FrameType = ClientFrame['type'];

/** What a refused frame is answered with beside the error: the handle the client gave it. */
export interface FrameHandle {
  seq?: number;
  ref?: number;
  sub?: string;
}

const counter = () => bodyInteger().min(0).max(Number.MAX_SAFE_INTEGER);
/** A subscription's name is the client's: short, printable, and safe to echo. */
const sub = Joi.string()
  .pattern(/^[A-Za-z0-9._:-]{1,100}$/)
  .messages({ 'string.pattern.base': 'must be 1 to 100 characters of A-Z, a-z, 0-9, . _ : -' });
const frame = (type: FrameType, fields: Record<string, Joi.Schema>): ObjectSchema => Joi.object({ type: Joi.string().valid(type).required(), ...fields });

export const FRAME_SCHEMAS: Record<FrameType, ObjectSchema> = {
  publish: frame('publish', {
    seq: counter().min(1).required(),
    topic: name.required(),
    payload: storableText().allow('').required(),
    headers,
    delay_seconds: delaySeconds,
    expires_in_seconds: expiresInSeconds,
    priority,
    group_key: groupKey,
    ordering_key: orderingKey,
    idempotency_key: idempotencyKey,
  }),
  subscribe: frame('subscribe', { sub: sub.required(), queue: name.required(), prefetch: bodyInteger().min(1).max(MAX_PREFETCH).required() }),
  credit: frame('credit', { sub: sub.required(), prefetch: bodyInteger().min(0).max(MAX_PREFETCH).required() }),
  unsubscribe: frame('unsubscribe', { sub: sub.required() }),
  ack: frame('ack', { ids: Joi.array().items(messageId).min(1).max(MAX_ACK_IDS).required(), ref: counter() }),
  nack: frame('nack', {
    id: messageId.required(),
    requeue: bodyBoolean(),
    delay_seconds: delaySeconds,
    reason: storableText().max(NACK_REASON_MAX).allow(''),
    // A hand back (false) puts the message back as it was claimed; with requeue false it has no effect.
    count_retry: bodyBoolean(),
    ref: counter(),
  }),
  // One lease (`id`, answered as the HTTP extend) or many (`ids`, answered per id as `ack`).
  extend: frame('extend', {
    id: messageId,
    ids: Joi.array().items(messageId).min(1).max(MAX_EXTEND_IDS),
    seconds: bodyInteger().min(1).max(43_200).required(),
    ref: counter(),
  }).xor('id', 'ids'),
  // As /ws/monitor's query: every event, or one queue's.
  watch: frame('watch', { sub: sub.required(), queue: name }),
  unwatch: frame('unwatch', { sub: sub.required() }),
};

export const FRAME_TYPES = Object.keys(FRAME_SCHEMAS) as FrameType[];

export type Parsed = { frame: ClientFrame } | { error: ValidationError; handle: FrameHandle };

const refused = (message: string, field: string, problem: string, handle: FrameHandle = {}): Parsed => ({
  error: new ValidationError(message, [{ field, message: problem }]),
  handle,
});

/** The handle a (possibly bad) frame carries, when it is of the right type: to say which frame was refused. */
function handleOf(value: Record<string, unknown>): FrameHandle {
  const handle: FrameHandle = {};
  if (Number.isSafeInteger(value.seq)) handle.seq = value.seq as number;
  if (Number.isSafeInteger(value.ref)) handle.ref = value.ref as number;
  if (typeof value.sub === 'string' && /^[A-Za-z0-9._:-]{1,100}$/.test(value.sub)) handle.sub = value.sub;
  return handle;
}

/** One frame, checked. */
export function parseFrame(value: unknown): Parsed {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return refused('A frame must be a JSON object', 'frame', 'must be an object');
  const record = value as Record<string, unknown>;
  const quick = quickFrame(record);
  if (quick) return { frame: quick };
  const schema = typeof record.type === 'string' ? FRAME_SCHEMAS[record.type as FrameType] : undefined;
  if (!schema || !Object.hasOwn(FRAME_SCHEMAS, record.type as string)) {
    return refused(`Unknown frame type; expected one of ${FRAME_TYPES.join(', ')}`, 'type', `must be one of ${FRAME_TYPES.join(', ')}`, handleOf(record));
  }
  // joi stops at the first problem by default (abortEarly); passing it again would cost a merge of preferences per frame.
  const { value: checked, error } = schema.validate(value);
  if (error) return { error: validationErrorOf(problemsOfValue(schema, value, error.details)), handle: handleOf(record) };
  return { frame: checked as ClientFrame };
}

/**
 * A WebSocket message: one frame or an array of them. Answers the frames in order, or one refusal
 * for the whole message when it is not JSON or holds too many frames.
 */
export function parseMessage(text: string): Parsed[] | { error: ValidationError } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: new ValidationError('A message must be JSON: one frame object or an array of frames', [{ field: 'message', message: 'is not JSON' }]) };
  }
  if (!Array.isArray(value)) return [parseFrame(value)];
  if (value.length === 0 || value.length > MAX_FRAMES_PER_MESSAGE) {
    return {
      error: new ValidationError(`A message holds 1 to ${MAX_FRAMES_PER_MESSAGE} frames`, [
        { field: 'message', message: `must hold 1 to ${MAX_FRAMES_PER_MESSAGE} frames` },
      ]),
    };
  }
  return value.map(parseFrame);
}
