/* tslint:disable */
/* eslint-disable */
/**
 * MiniQueue
 * MiniQueue is a durable message broker on PostgreSQL with at-least-once delivery, topic → queue fan-out, explicit acknowledgements with leases, a dead-letter queue (DLQ), API-key security for programs and GitHub sign-in for people.  A producer publishes to a **topic**; the broker stores one copy of the message in every **queue** bound to that topic, in one transaction. Each queue delivers its copies independently. A consumer claims a message (PENDING → UNACKED, with a lease of the queue\'s `ack_timeout_seconds`), processes it and acks it (→ ACKED, final). A nack or an expired lease puts it back to PENDING with `retry_count + 1`; once `retry_count` would exceed the queue\'s `max_retries`, or on a nack with `requeue: false`, it goes to DEAD, from where an admin can replay it. Delivery is approximately FIFO; consumers should be idempotent.  ## Authentication Every endpoint except those marked public needs `Authorization: Bearer <credential>`: - `mq_…` — the API key of a registered client (a program). Keys are shown once, at registration or   rotation, and are stored only as SHA-256 hashes. - `mqs_…` — a dashboard session token, obtained through GitHub sign-in and   `POST /api/v1/auth/exchange`. Sessions last 8 hours or until logout.  Every credential resolves to a principal `{name, kind, scopes}`. A missing, malformed, expired or revoked credential is `401`; a valid credential without the needed scope is `403`.  ## Scopes | Scope | Allows | |---|---| | `publish:<topic>` / `publish:*` | Publishing to that topic / any topic | | `consume:<queue>` / `consume:*` | Consuming, receiving, acking, nacking and extending on that queue / any queue | | `view` | Reading topics, queues, messages, the dashboard, the DLQ and the live monitor | | `metrics` | Scraping `/actuator/prometheus` | | `admin` | Everything (implies every other scope) |  Anything not granted is denied. Each operation states the scope it needs in `x-required-scope` (`none` for public operations, `any` for any valid credential, `session` for a dashboard session, `consume:{message.queue}` for the queue the addressed message belongs to).  Consumer identity is the principal\'s name plus the optional `MiniQueue-Instance` header (to tell replicas sharing one key apart); it is never taken from the request body. Only the consumer identity that holds a message may ack, nack or extend it.  ## Names Topic, queue and client names, in bodies and in paths, are lowercased and must then match `^[a-z0-9._-]{1,100}$` and not be `.` or `..`, else `400`. `/api/v1/queues/Email-Queue/consume` addresses `email-queue`. Responses always carry lowercase names.  ## Conventions JSON bodies use snake_case. Timestamps are RFC 3339 in UTC with a zone, e.g. `2026-11-29T10:00:00.123Z`. Request bodies reject unknown fields with `400`. Numbers out of range are `400` with an `errors` entry, never silently clamped; fields with a default may be omitted. Types are JSON\'s own: `\"10\"` where an integer is expected, or `\"true\"` where a boolean is, is `400` (query parameters, which are text, are read as numbers).  ## Errors Every error, from every route (a `404` for an unknown route included), has one shape: ```json { \"status\": 404, \"code\": \"topic_not_found\", \"message\": \"No topic found with the name order.placed\", \"errors\": null, \"response_body\": null } ``` `code` is stable and says what went wrong (the `ErrorCode` schema lists them all); branch on it, never on `message`, which is for people. A `403` for a missing scope names it in `scope`. A method a path does not take is `405` with an `Allow` header. On a `400`, `errors` lists field problems: `[{\"field\": \"name\", \"message\": \"…\"}]`, the first ten of them (`message` counts the rest). `413` means a payload over the limit (262,144 UTF-8 bytes by default), decided before the whole body is read. `415` means a body that is not `application/json`, decided from the headers. `429` means rate limited and carries `Retry-After` (seconds). `503` means the database is unavailable (or every connection to it stayed busy for a few seconds) and carries `Retry-After` too. `500` never carries details. `429`, `500` and `503` may be retried with backoff; the other errors should not be retried unchanged.  ## WebSockets These are not HTTP operations and are therefore not listed as paths. - `GET /ws/consume?queue=<queue>&ticket=wst_…` (needs `consume:<queue>`): after a publish commits,   pushes `{\"queue\": \"<queue>\", \"message_id\": \"<uuid>\"}` to one connected consumer of that queue,   round-robin, whichever instance took the publish. It carries the id only, never the payload; the   consumer then claims through `POST /api/v1/queues/{queue}/consume`. - `GET /ws/monitor?ticket=wst_…` (needs `view`): every state transition, after commit, as   `{\"eventType\", \"queueName\", \"detail\", \"count\", \"timestamp\"}`, with event types `CREATED`,   `PUBLISHED`, `CONSUMED`, `ACKED`, `NACKED`, `REDELIVERED`, `DEAD` and `REPLAYED`, across all   instances. `count` is how many messages (or, for `CREATED`, topics and queues) the event stands   for; `detail` is for people. Each instance gathers its transitions for 100 ms and sends them   together, so events reach a dashboard within about 100 ms, in that instance\'s order; more than   20 messages of one type and queue in one such window are summarized in one event with their   `count` (\"100 messages published to email-queue\"). A dashboard that cannot keep up receives   `{\"eventType\": \"EVENTS_DROPPED\", \"queueName\": null, \"detail\": \"N events dropped\", \"count\": N, \"timestamp\"}`   in place of what it missed; memory per dashboard stays bounded.  Tickets come from `POST /api/v1/auth/ws-ticket` (30 seconds, single use). A program may instead send `Authorization: Bearer mq_…` on the handshake. Refusal happens at the handshake: `401` for a missing or bad credential, `403` for a missing scope or a browser origin not in `CORS_ALLOWED_ORIGINS` (a handshake without an `Origin` header is allowed), `429` with `Retry-After` when the credential\'s rate limit is spent (a handshake counts as a request), when it already holds its maximum of open WebSockets on that instance, or when the client address has failed too many handshakes, `503` with `Retry-After` when the database is unavailable. Revoking or rotating a key, or logging out, closes that credential\'s open WebSockets on every instance and invalidates its tickets not yet used. Close codes: `1008` the credential ended; `4404` the queue was deleted; `1012` the broker lost its database notification connection (reconnect with a fresh ticket); `1001` the broker is shutting down.  Swagger UI is served at `/swagger-ui` (public). 
 *
 * The version of the OpenAPI document: 0.1.0
 * 
 *
 * NOTE: This class is auto generated by OpenAPI Generator (https://openapi-generator.tech).
 * https://openapi-generator.tech
 * Do not edit the class manually.
 */

import * as runtime from '../runtime.js';
import {
    type BulkReplayRequest,
    BulkReplayRequestFromJSON,
    BulkReplayRequestToJSON,
} from '../models/BulkReplayRequest.js';
import {
    type BulkReplayResult,
    BulkReplayResultFromJSON,
    BulkReplayResultToJSON,
} from '../models/BulkReplayResult.js';
import {
    type MessagePage,
    MessagePageFromJSON,
    MessagePageToJSON,
} from '../models/MessagePage.js';
import {
    type ReplayResult,
    ReplayResultFromJSON,
    ReplayResultToJSON,
} from '../models/ReplayResult.js';

export interface ListDeadLettersRequest {
    queue?: string;
    limit?: number;
    cursor?: string;
}

export interface ReplayDeadLetterRequest {
    id: string;
}

export interface ReplayDeadLettersRequest {
    bulkReplayRequest: BulkReplayRequest;
}

/**
 * 
 */
export class DeadLettersApi extends runtime.BaseAPI {

    /**
     * Creates request options for listDeadLetters without sending the request
     */
    async listDeadLettersRequestOpts(requestParameters: ListDeadLettersRequest): Promise<runtime.RequestOpts> {
        const queryParameters: any = {};

        if (requestParameters['queue'] != null) {
            queryParameters['queue'] = requestParameters['queue'];
        }

        if (requestParameters['limit'] != null) {
            queryParameters['limit'] = requestParameters['limit'];
        }

        if (requestParameters['cursor'] != null) {
            queryParameters['cursor'] = requestParameters['cursor'];
        }

        const headerParameters: runtime.HTTPHeaders = {};

        if (this.configuration && this.configuration.accessToken) {
            const token = this.configuration.accessToken;
            const tokenString = await token("bearerAuth", []);

            if (tokenString) {
                headerParameters["Authorization"] = `Bearer ${tokenString}`;
            }
        }

        let urlPath = `/api/v1/dashboard/dlq`;

        return {
            path: urlPath,
            method: 'GET',
            headers: headerParameters,
            query: queryParameters,
        };
    }

    /**
     * DEAD messages, across all queues or of one queue, one page at a time (see `listQueueMessages` for the cursor). An unknown `queue` is `404`. 
     * List dead messages
     */
    async listDeadLettersRaw(requestParameters: ListDeadLettersRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<MessagePage>> {
        const requestOptions = await this.listDeadLettersRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => MessagePageFromJSON(jsonValue));
    }

    /**
     * DEAD messages, across all queues or of one queue, one page at a time (see `listQueueMessages` for the cursor). An unknown `queue` is `404`. 
     * List dead messages
     */
    async listDeadLetters(requestParameters: ListDeadLettersRequest = {}, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<MessagePage> {
        const response = await this.listDeadLettersRaw(requestParameters, initOverrides);
        return await response.value();
    }

    /**
     * Creates request options for replayDeadLetter without sending the request
     */
    async replayDeadLetterRequestOpts(requestParameters: ReplayDeadLetterRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['id'] == null) {
            throw new runtime.RequiredError(
                'id',
                'Required parameter "id" was null or undefined when calling replayDeadLetter().'
            );
        }

        const queryParameters: any = {};

        const headerParameters: runtime.HTTPHeaders = {};

        if (this.configuration && this.configuration.accessToken) {
            const token = this.configuration.accessToken;
            const tokenString = await token("bearerAuth", []);

            if (tokenString) {
                headerParameters["Authorization"] = `Bearer ${tokenString}`;
            }
        }

        let urlPath = `/api/v1/dashboard/dlq/{id}/replay`;
        urlPath = urlPath.replace('{id}', encodeURIComponent(String(requestParameters['id'])));

        return {
            path: urlPath,
            method: 'POST',
            headers: headerParameters,
            query: queryParameters,
        };
    }

    /**
     * Moves a DEAD message back to PENDING with `retry_count` reset to 0. `409` if it is not DEAD.
     * Replay a dead message
     */
    async replayDeadLetterRaw(requestParameters: ReplayDeadLetterRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<ReplayResult>> {
        const requestOptions = await this.replayDeadLetterRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => ReplayResultFromJSON(jsonValue));
    }

    /**
     * Moves a DEAD message back to PENDING with `retry_count` reset to 0. `409` if it is not DEAD.
     * Replay a dead message
     */
    async replayDeadLetter(requestParameters: ReplayDeadLetterRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<ReplayResult> {
        const response = await this.replayDeadLetterRaw(requestParameters, initOverrides);
        return await response.value();
    }

    /**
     * Creates request options for replayDeadLetters without sending the request
     */
    async replayDeadLettersRequestOpts(requestParameters: ReplayDeadLettersRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['bulkReplayRequest'] == null) {
            throw new runtime.RequiredError(
                'bulkReplayRequest',
                'Required parameter "bulkReplayRequest" was null or undefined when calling replayDeadLetters().'
            );
        }

        const queryParameters: any = {};

        const headerParameters: runtime.HTTPHeaders = {};

        headerParameters['Content-Type'] = 'application/json';

        if (this.configuration && this.configuration.accessToken) {
            const token = this.configuration.accessToken;
            const tokenString = await token("bearerAuth", []);

            if (tokenString) {
                headerParameters["Authorization"] = `Bearer ${tokenString}`;
            }
        }

        let urlPath = `/api/v1/dashboard/dlq/replay`;

        return {
            path: urlPath,
            method: 'POST',
            headers: headerParameters,
            query: queryParameters,
            body: BulkReplayRequestToJSON(requestParameters['bulkReplayRequest']),
        };
    }

    /**
     * Moves up to `limit` DEAD messages of the queue (oldest first; all of them when `limit` is omitted) back to PENDING with `retry_count` reset to 0. 
     * Replay the dead messages of a queue
     */
    async replayDeadLettersRaw(requestParameters: ReplayDeadLettersRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<BulkReplayResult>> {
        const requestOptions = await this.replayDeadLettersRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => BulkReplayResultFromJSON(jsonValue));
    }

    /**
     * Moves up to `limit` DEAD messages of the queue (oldest first; all of them when `limit` is omitted) back to PENDING with `retry_count` reset to 0. 
     * Replay the dead messages of a queue
     */
    async replayDeadLetters(requestParameters: ReplayDeadLettersRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<BulkReplayResult> {
        const response = await this.replayDeadLettersRaw(requestParameters, initOverrides);
        return await response.value();
    }

}
