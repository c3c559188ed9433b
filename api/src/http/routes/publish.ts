import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { header } from '../hapi-augment.js';
import { PayloadTooLargeError } from '../../errors.js';
import type { PublishItem } from '../../broker/publish.js';
import { singleBodyLimit } from '../../broker/publishLimits.js';
import { access, principalOf } from '../access.js';
import type { AppContext } from '../context.js';
import { delaySeconds, expiresInSeconds, groupKey, headers, idempotencyKey, name, orderingKey, priority, storableText } from '../schemas.js';
import { traceHeadersOf, withTraceHeaders } from '../../tracing/traceContext.js';

const BATCH_BODY_LIMIT = 10 * 1024 * 1024;

interface MessageBody {
  payload: string;
  headers?: Record<string, string>;
  delay_seconds?: number;
  expires_in_seconds?: number;
  priority?: number;
  group_key?: string;
  ordering_key?: string;
  idempotency_key?: string;
}

const messageFields = {
  payload: storableText().allow('').required(),
  headers,
  delay_seconds: delaySeconds,
  expires_in_seconds: expiresInSeconds,
  priority,
  group_key: groupKey,
  ordering_key: orderingKey,
};

/**
 * A message of the request. `trace`: the request's W3C trace context (`traceparent` and
 * `tracestate` headers), stored with the message unless its own headers name a traceparent.
 */
function toItem(body: MessageBody, maxPayloadBytes: number, idempotencyKey: string | undefined, trace: Record<string, string> | undefined): PublishItem {
  const bytes = Buffer.byteLength(body.payload, 'utf8');
  if (bytes > maxPayloadBytes) {
    throw new PayloadTooLargeError(`Payload is ${bytes} bytes; the limit is ${maxPayloadBytes}`);
  }
  return {
    payload: body.payload,
    headers: withTraceHeaders(body.headers ?? {}, trace),
    delaySeconds: body.delay_seconds ?? 0,
    expiresInSeconds: body.expires_in_seconds,
    priority: body.priority,
    groupKey: body.group_key,
    orderingKey: body.ordering_key,
    idempotencyKey,
  };
}

export function publishRoutes(server: Server, ctx: AppContext): void {
  const limit = ctx.config.maxPayloadBytes;
  const topicParams = Joi.object({ topic: name.required() });
  server.route<{ Params: { topic: string }; Payload: MessageBody }>({
    method: 'POST',
    path: '/topics/{topic}/messages',
    options: {
      ...access('publish:{topic}'),
      payload: { maxBytes: singleBodyLimit(limit) },
      validate: {
        params: topicParams,
        headers: Joi.object({ 'idempotency-key': idempotencyKey }).unknown(true),
        payload: Joi.object(messageFields).required(),
      },
    },
    handler: async (request, h) => {
      const key = header(request, 'idempotency-key');
      // Shares its statement and commit with the other single publishes in flight (group commit).
      const item = toItem(request.payload, limit, key, traceHeadersOf(request.headers));
      const result = await ctx.publisher.publishOne(principalOf(request).owner, request.params.topic, item);
      return h.response(result).code(result.duplicate ? 200 : 201);
    },
  });
  server.route<{ Params: { topic: string }; Payload: { messages: MessageBody[] } }>({
    method: 'POST',
    path: '/topics/{topic}/messages/batch',
    options: {
      ...access('publish:{topic}'),
      payload: { maxBytes: BATCH_BODY_LIMIT },
      validate: {
        params: topicParams,
        payload: Joi.object({
          messages: Joi.array()
            .items(Joi.object({ ...messageFields, idempotency_key: idempotencyKey }))
            .min(1)
            .max(500)
            .required(),
        }).required(),
      },
    },
    handler: async (request, h) => {
      const trace = traceHeadersOf(request.headers);
      const items = request.payload.messages.map((message) => toItem(message, limit, message.idempotency_key, trace));
      const results = await ctx.publisher.publishBatch(principalOf(request).owner, request.params.topic, items);
      return h.response({ results }).code(201);
    },
  });
}
