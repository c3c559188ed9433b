import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { access, holderOf } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyBoolean, bodyInteger, delaySeconds, messageId, storableText } from '../schemas.js';

/** A nack's reason is for people reading the dead letters: a line, not a document. */
const NACK_REASON_MAX = 500;

type MessageParams = { id: string };

export function settleRoutes(server: Server, ctx: AppContext): void {
  const pathParams = Joi.object({ id: messageId.required() });
  const holderAccess = access('consume:{message.queue}');
  server.route<{ Params: MessageParams }>({
    method: 'POST',
    path: '/messages/{id}/ack',
    options: { ...holderAccess, validate: { params: pathParams } },
    handler: async (request) => {
      const acked = await ctx.settler.ackOne(request.params.id, holderOf(request));
      return { message_id: acked.id, status: 'ACKED' };
    },
  });
  server.route<{ Payload: { message_ids: string[] } }>({
    method: 'POST',
    path: '/messages/ack',
    options: {
      ...holderAccess,
      validate: { payload: Joi.object({ message_ids: Joi.array().items(messageId).min(1).max(100).required() }).required() },
    },
    handler: async (request) => {
      const result = await ctx.settler.ackMany(request.payload.message_ids, holderOf(request));
      return { acked: result.acked.map((row) => row.id), failed: result.failed };
    },
  });
  server.route<{ Params: MessageParams; Payload: { requeue: boolean; delay_seconds: number; reason?: string; count_retry?: boolean } | null }>({
    method: 'POST',
    path: '/messages/{id}/nack',
    options: {
      ...holderAccess,
      validate: {
        params: pathParams,
        payload: Joi.object({
          requeue: bodyBoolean().default(true),
          delay_seconds: delaySeconds.default(0),
          reason: storableText().max(NACK_REASON_MAX).allow(''),
          // A hand back (false) puts the message back as it was claimed; with requeue false it has no effect.
          count_retry: bodyBoolean(),
        }).allow(null),
      },
    },
    handler: async (request) => {
      const nacked = await ctx.settler.nackOne(request.params.id, holderOf(request), {
        requeue: request.payload?.requeue ?? true,
        delaySeconds: request.payload?.delay_seconds ?? 0,
        reason: request.payload?.reason || null,
        countRetry: request.payload?.count_retry ?? true,
      });
      return { message_id: nacked.id, status: nacked.status };
    },
  });
  server.route<{ Params: MessageParams; Payload: { seconds: number } }>({
    method: 'POST',
    path: '/messages/{id}/extend',
    options: {
      ...holderAccess,
      validate: { params: pathParams, payload: Joi.object({ seconds: bodyInteger().min(1).max(43200).required() }).required() },
    },
    handler: async (request) => {
      const extended = await ctx.settler.extend(request.params.id, holderOf(request), request.payload.seconds);
      return { message_id: extended.id, lease_expires_at: extended.lease_expires_at.toISOString() };
    },
  });
}
