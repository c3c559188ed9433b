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

import { mapValues } from '../runtime.js';
/**
 * 
 * @export
 * @interface NackRequest
 */
export interface NackRequest {
    /**
     * true retries the message; false sends it to the DLQ.
     * @type {boolean}
     * @memberof NackRequest
     */
    requeue?: boolean;
    /**
     * Seconds before the message becomes claimable.
     * @type {number}
     * @memberof NackRequest
     */
    delay_seconds?: number;
}

/**
 * Check if a given object implements the NackRequest interface.
 */
export function instanceOfNackRequest(value: object): value is NackRequest {
    return true;
}

export function NackRequestFromJSON(json: any): NackRequest {
    return NackRequestFromJSONTyped(json, false);
}

export function NackRequestFromJSONTyped(json: any, ignoreDiscriminator: boolean): NackRequest {
    if (json == null) {
        return json;
    }
    return {
        
        'requeue': json['requeue'] == null ? undefined : json['requeue'],
        'delay_seconds': json['delay_seconds'] == null ? undefined : json['delay_seconds'],
    };
}

export function NackRequestToJSON(json: any): NackRequest {
    return NackRequestToJSONTyped(json, false);
}

export function NackRequestToJSONTyped(value?: NackRequest | null, ignoreDiscriminator: boolean = false): any {
    if (value == null) {
        return value;
    }

    return {
        
        'requeue': value['requeue'],
        'delay_seconds': value['delay_seconds'],
    };
}

