import Joi from 'joi';
import type { ServerRoute } from '@hapi/hapi';
import { params } from '../hapi-augment.js';
import { access, holderOf } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyBoolean, bodyInteger, delaySeconds, messageId } from '../schemas.js';

export function settleRoutes(ctx: AppContext): ServerRoute[] {
  const pathParams = Joi.object({ id: messageId.required() });
  const holderAccess = access('consume:{message.queue}');
  return [
    {
      method: 'POST',
      path: '/api/v1/messages/{id}/ack',
      options: { ...holderAccess, validate: { params: pathParams } },
      handler: async (request) => {
        const acked = await ctx.settler.ackOne(params(request).id, holderOf(request));
        ctx.metrics.recordAcked([acked]);
        return { message_id: acked.id, status: 'ACKED' };
      },
    },
    {
      method: 'POST',
      path: '/api/v1/messages/ack',
      options: {
        ...holderAccess,
        validate: { payload: Joi.object({ message_ids: Joi.array().items(messageId).min(1).max(100).required() }).required() },
      },
      handler: async (request) => {
        const { message_ids: ids } = request.payload as { message_ids: string[] };
        const result = await ctx.settler.ackMany(ids, holderOf(request));
        ctx.metrics.recordAcked(result.acked);
        return { acked: result.acked.map((row) => row.id), failed: result.failed };
      },
    },
    {
      method: 'POST',
      path: '/api/v1/messages/{id}/nack',
      options: {
        ...holderAccess,
        validate: {
          params: pathParams,
          payload: Joi.object({ requeue: bodyBoolean().default(true), delay_seconds: delaySeconds.default(0) }).allow(null),
        },
      },
      handler: async (request) => {
        const body = (request.payload ?? {}) as { requeue?: boolean; delay_seconds?: number };
        const nacked = await ctx.settler.nackOne(params(request).id, holderOf(request), {
          requeue: body.requeue ?? true,
          delaySeconds: body.delay_seconds ?? 0,
        });
        ctx.metrics.recordReturned([nacked], false);
        return { message_id: nacked.id, status: nacked.status };
      },
    },
    {
      method: 'POST',
      path: '/api/v1/messages/{id}/extend',
      options: {
        ...holderAccess,
        validate: { params: pathParams, payload: Joi.object({ seconds: bodyInteger().min(1).max(43200).required() }).required() },
      },
      handler: async (request) => {
        const { seconds } = request.payload as { seconds: number };
        const extended = await ctx.settler.extend(params(request).id, holderOf(request), seconds);
        return { message_id: extended.id, lease_expires_at: extended.lease_expires_at.toISOString() };
      },
    },
  ];
}
