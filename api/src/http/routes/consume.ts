import Joi from 'joi';
import type { ReqRef, Request, Server } from '@hapi/hapi';
import { claimMessages } from '../../broker/longPoll.js';
import { toMessage } from '../../broker/message.js';
import { heldOf, putBack } from '../../broker/putBack.js';
import type { MessageRow } from '../../db/queries/messageRow.js';
import type { CredentialArtifacts } from '../../auth/scheme.js';
import { access, consumerOf, principalOf } from '../access.js';
import type { AppContext } from '../context.js';
import { LONG_POLL_TAG } from '../longPolls.js';
import { bodyInteger, bodyWaitSeconds, name, waitSeconds } from '../schemas.js';

/**
 * Aborted when the client's connection closes before its answer was sent. hapi's own 'disconnect'
 * event fires only while a request body is still arriving; a client that gives up during a long
 * poll closes after a complete request, which only the response's 'close' tells.
 */
function goneController<Refs extends ReqRef>(request: Request<Refs>): AbortController {
  const controller = new AbortController();
  const response = request.raw.res;
  if (response.destroyed) controller.abort();
  else response.once('close', () => controller.abort());
  return controller;
}

/** A claim whose answer never reached its client goes back at once, its retry count untouched. */
function unclaimIfUndelivered<Refs extends ReqRef>(ctx: AppContext, request: Request<Refs>, holder: string, rows: MessageRow[]): void {
  if (rows.length === 0) return;
  const response = request.raw.res;
  const giveBack = () => {
    if (response.writableFinished) return;
    putBack(ctx, heldOf(rows), holder).catch((error) => request.log(['error'], { message: 'could not put back an undelivered claim', error }));
  };
  if (response.destroyed) giveBack();
  else response.once('close', giveBack);
}

type QueueParams = { queue: string };

/**
 * A long poll's credential is watched while it waits: when it changes so that a new request with
 * it would be refused, the poll stops (claiming nothing) and is answered with that refusal.
 */
async function claim<Refs extends ReqRef>(ctx: AppContext, request: Request<Refs>, queue: string, limit: number, wait: number) {
  const { holder, consumerId } = consumerOf(request);
  ctx.rates.polled(queue, consumerId);
  const controller = goneController(request);
  const watch =
    wait > 0
      ? ctx.longPollCredentials.watch(principalOf(request), (request.auth.artifacts as CredentialArtifacts).credentialHash, queue, request.info.received, () =>
          controller.abort(),
        )
      : undefined;
  let messages: MessageRow[];
  try {
    messages = await claimMessages(ctx, {
      queue,
      holder,
      consumerId,
      limit,
      waitSeconds: wait,
      signal: controller.signal,
      credentialCheck: watch?.checking,
    });
  } finally {
    watch?.release();
  }
  const refusal = watch?.refusal();
  if (refusal) throw refusal;
  unclaimIfUndelivered(ctx, request, holder, messages);
  return messages;
}

export function consumeRoutes(server: Server, ctx: AppContext): void {
  const params = Joi.object({ queue: name.required() });
  server.route<{ Params: QueueParams; Query: { wait_seconds: number } }>({
    method: 'POST',
    path: '/queues/{queue}/consume',
    options: {
      ...access('consume:{queue}'),
      tags: [LONG_POLL_TAG],
      validate: { params, query: Joi.object({ wait_seconds: waitSeconds.default(0) }) },
    },
    handler: async (request, h) => {
      const [message] = await claim(ctx, request, request.params.queue, 1, request.query.wait_seconds);
      return message ? toMessage(message) : h.response().code(204);
    },
  });
  server.route<{ Params: QueueParams; Payload: { max_messages: number; wait_seconds: number } | null }>({
    method: 'POST',
    path: '/queues/{queue}/receive',
    options: {
      ...access('consume:{queue}'),
      tags: [LONG_POLL_TAG],
      validate: {
        params,
        payload: Joi.object({
          max_messages: bodyInteger().min(1).max(100).default(1),
          wait_seconds: bodyWaitSeconds.default(0),
        }).allow(null),
      },
    },
    handler: async (request) => {
      const messages = await claim(ctx, request, request.params.queue, request.payload?.max_messages ?? 1, request.payload?.wait_seconds ?? 0);
      return { messages: messages.map(toMessage) };
    },
  });
}
