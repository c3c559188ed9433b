import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { header } from '../hapi-augment.js';
import { replayHistory } from '../../broker/historyReplay.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyBoolean, idempotencyKey, messageId, name } from '../schemas.js';

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
        payload: Joi.object({ since: Joi.date().iso(), after_id: messageId, dry_run: bodyBoolean() })
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
