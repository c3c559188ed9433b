import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { header } from '../hapi-augment.js';
import { PayloadTooLargeError } from '../../errors.js';
import type { PublishItem, PublishOutcome } from '../../broker/publish.js';
import { access, principalOf } from '../access.js';
import type { AppContext } from '../context.js';
import { delaySeconds, headers, idempotencyKey, name, orderingKey, storableText } from '../schemas.js';

const BATCH_BODY_LIMIT = 10 * 1024 * 1024;
/** JSON escaping can grow a payload; the body cap leaves room for that and for the headers. */
export const singleBodyLimit = (maxPayloadBytes: number) => 4 * maxPayloadBytes + 64 * 1024;

interface MessageBody {
  payload: string;
  headers?: Record<string, string>;
  delay_seconds?: number;
  ordering_key?: string;
  idempotency_key?: string;
}

const messageFields = {
  payload: storableText().allow('').required(),
  headers,
  delay_seconds: delaySeconds,
  ordering_key: orderingKey,
};

function toItem(body: MessageBody, maxPayloadBytes: number, idempotencyKey?: string): PublishItem {
  const bytes = Buffer.byteLength(body.payload, 'utf8');
  if (bytes > maxPayloadBytes) {
    throw new PayloadTooLargeError(`Payload is ${bytes} bytes; the limit is ${maxPayloadBytes}`);
  }
  return {
    payload: body.payload,
    headers: body.headers ?? {},
    delaySeconds: body.delay_seconds ?? 0,
    orderingKey: body.ordering_key,
    idempotencyKey,
  };
}

function recorded(ctx: AppContext, results: PublishOutcome[]): PublishOutcome[] {
  for (const result of results) if (!result.duplicate) ctx.metrics.recordPublished(result.queues);
  return results;
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
      const item = toItem(request.payload, limit, key);
      const [result] = recorded(ctx, [await ctx.publisher.publishOne(principalOf(request).owner, request.params.topic, item)]);
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
      const items = request.payload.messages.map((message) => toItem(message, limit, message.idempotency_key));
      const results = recorded(ctx, await ctx.publisher.publishBatch(principalOf(request).owner, request.params.topic, items));
      return h.response({ results }).code(201);
    },
  });
}
