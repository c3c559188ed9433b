import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { header } from '../hapi-augment.js';
import { replayHistory } from '../../broker/historyReplay.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyBoolean, idempotencyKey, messageId, name } from '../schemas.js';

/**
 * A date-time as RFC 3339 (and the contract's `format: date-time`) writes it: a four-digit year,
 * in UTC too. joi also reads ISO 8601's expanded years (+010000, -000001), which toISOString()
 * writes back in a form PostgreSQL cannot read.
 */
const dateTime = Joi.date()
  .iso()
  .custom((value: Date, helpers) => {
    const year = value.getUTCFullYear();
    return year >= 1 && year <= 9999 ? value : helpers.message({ custom: 'must be a date-time with a year from 0001 to 9999 (in UTC)' });
  });

interface ReplayBody {
  since?: Date;
  after_id?: string;
  dry_run?: boolean;
}

export function historyReplayRoutes(server: Server, ctx: AppContext): void {
  server.route<{ Params: { queue: string }; Payload: ReplayBody }>({
    method: 'POST',
    path: '/queues/{queue}/replay',
    options: {
      ...access('admin'),
      validate: {
        params: Joi.object({ queue: name.required() }),
        headers: Joi.object({ 'idempotency-key': idempotencyKey }).unknown(true),
        payload: Joi.object({ since: dateTime, after_id: messageId, dry_run: bodyBoolean() })
          .xor('since', 'after_id')
          .messages({ 'object.missing': 'give since or after_id', 'object.xor': 'give since or after_id, not both' })
          .required(),
      },
    },
    handler: (request) =>
      replayHistory(ctx, {
        queue: request.params.queue,
        since: request.payload.since?.toISOString(),
        afterId: request.payload.after_id,
        dryRun: request.payload.dry_run ?? false,
        idempotencyKey: header(request, 'idempotency-key'),
      }),
  });
}
