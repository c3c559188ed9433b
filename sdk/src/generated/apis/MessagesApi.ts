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
    type AckResult,
    AckResultFromJSON,
    AckResultToJSON,
} from '../models/AckResult.js';
import {
    type BatchAckRequest,
    BatchAckRequestFromJSON,
    BatchAckRequestToJSON,
} from '../models/BatchAckRequest.js';
import {
    type BatchAckResult,
    BatchAckResultFromJSON,
    BatchAckResultToJSON,
} from '../models/BatchAckResult.js';
import {
    type BatchPublishRequest,
    BatchPublishRequestFromJSON,
    BatchPublishRequestToJSON,
} from '../models/BatchPublishRequest.js';
import {
    type BatchPublishResult,
    BatchPublishResultFromJSON,
    BatchPublishResultToJSON,
} from '../models/BatchPublishResult.js';
import {
    type ExtendRequest,
    ExtendRequestFromJSON,
    ExtendRequestToJSON,
} from '../models/ExtendRequest.js';
import {
    type ExtendResult,
    ExtendResultFromJSON,
    ExtendResultToJSON,
} from '../models/ExtendResult.js';
import {
    type Message,
    MessageFromJSON,
    MessageToJSON,
} from '../models/Message.js';
import {
    type NackRequest,
    NackRequestFromJSON,
    NackRequestToJSON,
} from '../models/NackRequest.js';
import {
    type NackResult,
    NackResultFromJSON,
    NackResultToJSON,
} from '../models/NackResult.js';
import {
    type PublishRequest,
    PublishRequestFromJSON,
    PublishRequestToJSON,
} from '../models/PublishRequest.js';
import {
    type PublishResult,
    PublishResultFromJSON,
    PublishResultToJSON,
} from '../models/PublishResult.js';
import {
    type ReceiveRequest,
    ReceiveRequestFromJSON,
    ReceiveRequestToJSON,
} from '../models/ReceiveRequest.js';
import {
    type ReceiveResult,
    ReceiveResultFromJSON,
    ReceiveResultToJSON,
} from '../models/ReceiveResult.js';

export interface AckMessageRequest {
    id: string;
    miniQueueInstance?: string;
}

export interface AckMessagesRequest {
    batchAckRequest: BatchAckRequest;
    miniQueueInstance?: string;
}

export interface ConsumeMessageRequest {
    queue: string;
    waitSeconds?: number;
    miniQueueInstance?: string;
}

export interface ExtendLeaseRequest {
    id: string;
    extendRequest: ExtendRequest;
    miniQueueInstance?: string;
}

export interface NackMessageRequest {
    id: string;
    miniQueueInstance?: string;
    nackRequest?: NackRequest;
}

export interface PublishBatchRequest {
    topic: string;
    batchPublishRequest: BatchPublishRequest;
}

export interface PublishMessageRequest {
    topic: string;
    publishRequest: PublishRequest;
    idempotencyKey?: string;
}

export interface ReceiveMessagesRequest {
    queue: string;
    miniQueueInstance?: string;
    receiveRequest?: ReceiveRequest;
}

/**
 * 
 */
export class MessagesApi extends runtime.BaseAPI {

    /**
     * Creates request options for ackMessage without sending the request
     */
    async ackMessageRequestOpts(requestParameters: AckMessageRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['id'] == null) {
            throw new runtime.RequiredError(
                'id',
                'Required parameter "id" was null or undefined when calling ackMessage().'
            );
        }

        const queryParameters: any = {};

        const headerParameters: runtime.HTTPHeaders = {};

        if (requestParameters['miniQueueInstance'] != null) {
            headerParameters['MiniQueue-Instance'] = String(requestParameters['miniQueueInstance']);
        }

        if (this.configuration && this.configuration.accessToken) {
            const token = this.configuration.accessToken;
            const tokenString = await token("bearerAuth", []);

            if (tokenString) {
                headerParameters["Authorization"] = `Bearer ${tokenString}`;
            }
        }

        let urlPath = `/api/v1/messages/{id}/ack`;
        urlPath = urlPath.replace('{id}', encodeURIComponent(String(requestParameters['id'])));

        return {
            path: urlPath,
            method: 'POST',
            headers: headerParameters,
            query: queryParameters,
        };
    }

    /**
     * Marks an UNACKED message ACKED (final). Succeeds while the message is UNACKED and held by the caller\'s consumer identity, even if its lease time has passed but it has not yet been redelivered. **Fencing**: once it has been redelivered, or is held by another consumer, or is not UNACKED, the ack is `409`. **Retrying is safe**: the same consumer identity acking a message it already acked gets `200` again (as long as the queue\'s acked retention keeps the message; with retention `0` it is `404`), so an ack whose answer was lost can be repeated. Concurrent acks are committed together, one transaction for many. 
     * Acknowledge a message
     */
    async ackMessageRaw(requestParameters: AckMessageRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<AckResult>> {
        const requestOptions = await this.ackMessageRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => AckResultFromJSON(jsonValue));
    }

    /**
     * Marks an UNACKED message ACKED (final). Succeeds while the message is UNACKED and held by the caller\'s consumer identity, even if its lease time has passed but it has not yet been redelivered. **Fencing**: once it has been redelivered, or is held by another consumer, or is not UNACKED, the ack is `409`. **Retrying is safe**: the same consumer identity acking a message it already acked gets `200` again (as long as the queue\'s acked retention keeps the message; with retention `0` it is `404`), so an ack whose answer was lost can be repeated. Concurrent acks are committed together, one transaction for many. 
     * Acknowledge a message
     */
    async ackMessage(requestParameters: AckMessageRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<AckResult> {
        const response = await this.ackMessageRaw(requestParameters, initOverrides);
        return await response.value();
    }

    /**
     * Creates request options for ackMessages without sending the request
     */
    async ackMessagesRequestOpts(requestParameters: AckMessagesRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['batchAckRequest'] == null) {
            throw new runtime.RequiredError(
                'batchAckRequest',
                'Required parameter "batchAckRequest" was null or undefined when calling ackMessages().'
            );
        }

        const queryParameters: any = {};

        const headerParameters: runtime.HTTPHeaders = {};

        headerParameters['Content-Type'] = 'application/json';

        if (requestParameters['miniQueueInstance'] != null) {
            headerParameters['MiniQueue-Instance'] = String(requestParameters['miniQueueInstance']);
        }

        if (this.configuration && this.configuration.accessToken) {
            const token = this.configuration.accessToken;
            const tokenString = await token("bearerAuth", []);

            if (tokenString) {
                headerParameters["Authorization"] = `Bearer ${tokenString}`;
            }
        }

        let urlPath = `/api/v1/messages/ack`;

        return {
            path: urlPath,
            method: 'POST',
            headers: headerParameters,
            query: queryParameters,
            body: BatchAckRequestToJSON(requestParameters['batchAckRequest']),
        };
    }

    /**
     * Acks each listed message as `ackMessage` would (an id the caller had acked already is listed in `acked` again). The request itself is `200`; every id that cannot be acked is listed in `failed` with an HTTP-like `status`: `404` unknown message, `403` no consume scope for its queue, `409` not UNACKED or not held by the caller. 
     * Acknowledge up to 100 messages
     */
    async ackMessagesRaw(requestParameters: AckMessagesRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<BatchAckResult>> {
        const requestOptions = await this.ackMessagesRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => BatchAckResultFromJSON(jsonValue));
    }

    /**
     * Acks each listed message as `ackMessage` would (an id the caller had acked already is listed in `acked` again). The request itself is `200`; every id that cannot be acked is listed in `failed` with an HTTP-like `status`: `404` unknown message, `403` no consume scope for its queue, `409` not UNACKED or not held by the caller. 
     * Acknowledge up to 100 messages
     */
    async ackMessages(requestParameters: AckMessagesRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<BatchAckResult> {
        const response = await this.ackMessagesRaw(requestParameters, initOverrides);
        return await response.value();
    }

    /**
     * Creates request options for consumeMessage without sending the request
     */
    async consumeMessageRequestOpts(requestParameters: ConsumeMessageRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['queue'] == null) {
            throw new runtime.RequiredError(
                'queue',
                'Required parameter "queue" was null or undefined when calling consumeMessage().'
            );
        }

        const queryParameters: any = {};

        if (requestParameters['waitSeconds'] != null) {
            queryParameters['wait_seconds'] = requestParameters['waitSeconds'];
        }

        const headerParameters: runtime.HTTPHeaders = {};

        if (requestParameters['miniQueueInstance'] != null) {
            headerParameters['MiniQueue-Instance'] = String(requestParameters['miniQueueInstance']);
        }

        if (this.configuration && this.configuration.accessToken) {
            const token = this.configuration.accessToken;
            const tokenString = await token("bearerAuth", []);

            if (tokenString) {
                headerParameters["Authorization"] = `Bearer ${tokenString}`;
            }
        }

        let urlPath = `/api/v1/queues/{queue}/consume`;
        urlPath = urlPath.replace('{queue}', encodeURIComponent(String(requestParameters['queue'])));

        return {
            path: urlPath,
            method: 'POST',
            headers: headerParameters,
            query: queryParameters,
        };
    }

    /**
     * Claims the oldest PENDING message whose `available_at` has passed: it becomes UNACKED, held by the caller\'s consumer identity, with a lease until `lease_expires_at = now + ack_timeout_seconds` of the queue. Ack, nack or extend it before the lease ends, or it is redelivered (or goes DEAD when its retries are exhausted). Two consumers never receive the same claim.  **Long polling**: with `wait_seconds > 0`, the request returns as soon as a message becomes claimable (woken by a notification, not a tight poll loop) or after the wait, with `204`. One credential may have 100 long polls (consume and receive together) waiting per broker instance (`MINIQUEUE_LONG_POLLS_PER_CREDENTIAL`); one more is `429` with `Retry-After`. 
     * Claim the oldest claimable message of a queue
     */
    async consumeMessageRaw(requestParameters: ConsumeMessageRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<Message>> {
        const requestOptions = await this.consumeMessageRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => MessageFromJSON(jsonValue));
    }

    /**
     * Claims the oldest PENDING message whose `available_at` has passed: it becomes UNACKED, held by the caller\'s consumer identity, with a lease until `lease_expires_at = now + ack_timeout_seconds` of the queue. Ack, nack or extend it before the lease ends, or it is redelivered (or goes DEAD when its retries are exhausted). Two consumers never receive the same claim.  **Long polling**: with `wait_seconds > 0`, the request returns as soon as a message becomes claimable (woken by a notification, not a tight poll loop) or after the wait, with `204`. One credential may have 100 long polls (consume and receive together) waiting per broker instance (`MINIQUEUE_LONG_POLLS_PER_CREDENTIAL`); one more is `429` with `Retry-After`. 
     * Claim the oldest claimable message of a queue
     */
    async consumeMessage(requestParameters: ConsumeMessageRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<Message | null | undefined > {
        const response = await this.consumeMessageRaw(requestParameters, initOverrides);
        switch (response.raw.status) {
            case 200:
                return await response.value();
            case 204:
                return null;
            default:
                return await response.value();
        }
    }

    /**
     * Creates request options for extendLease without sending the request
     */
    async extendLeaseRequestOpts(requestParameters: ExtendLeaseRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['id'] == null) {
            throw new runtime.RequiredError(
                'id',
                'Required parameter "id" was null or undefined when calling extendLease().'
            );
        }

        if (requestParameters['extendRequest'] == null) {
            throw new runtime.RequiredError(
                'extendRequest',
                'Required parameter "extendRequest" was null or undefined when calling extendLease().'
            );
        }

        const queryParameters: any = {};

        const headerParameters: runtime.HTTPHeaders = {};

        headerParameters['Content-Type'] = 'application/json';

        if (requestParameters['miniQueueInstance'] != null) {
            headerParameters['MiniQueue-Instance'] = String(requestParameters['miniQueueInstance']);
        }

        if (this.configuration && this.configuration.accessToken) {
            const token = this.configuration.accessToken;
            const tokenString = await token("bearerAuth", []);

            if (tokenString) {
                headerParameters["Authorization"] = `Bearer ${tokenString}`;
            }
        }

        let urlPath = `/api/v1/messages/{id}/extend`;
        urlPath = urlPath.replace('{id}', encodeURIComponent(String(requestParameters['id'])));

        return {
            path: urlPath,
            method: 'POST',
            headers: headerParameters,
            query: queryParameters,
            body: ExtendRequestToJSON(requestParameters['extendRequest']),
        };
    }

    /**
     * Sets `lease_expires_at = now + seconds` for an UNACKED message held by the caller (same rules and `409` fencing as `ackMessage`). Use it to keep a long-running job from being redelivered. 
     * Extend the lease of a message
     */
    async extendLeaseRaw(requestParameters: ExtendLeaseRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<ExtendResult>> {
        const requestOptions = await this.extendLeaseRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => ExtendResultFromJSON(jsonValue));
    }

    /**
     * Sets `lease_expires_at = now + seconds` for an UNACKED message held by the caller (same rules and `409` fencing as `ackMessage`). Use it to keep a long-running job from being redelivered. 
     * Extend the lease of a message
     */
    async extendLease(requestParameters: ExtendLeaseRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<ExtendResult> {
        const response = await this.extendLeaseRaw(requestParameters, initOverrides);
        return await response.value();
    }

    /**
     * Creates request options for nackMessage without sending the request
     */
    async nackMessageRequestOpts(requestParameters: NackMessageRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['id'] == null) {
            throw new runtime.RequiredError(
                'id',
                'Required parameter "id" was null or undefined when calling nackMessage().'
            );
        }

        const queryParameters: any = {};

        const headerParameters: runtime.HTTPHeaders = {};

        headerParameters['Content-Type'] = 'application/json';

        if (requestParameters['miniQueueInstance'] != null) {
            headerParameters['MiniQueue-Instance'] = String(requestParameters['miniQueueInstance']);
        }

        if (this.configuration && this.configuration.accessToken) {
            const token = this.configuration.accessToken;
            const tokenString = await token("bearerAuth", []);

            if (tokenString) {
                headerParameters["Authorization"] = `Bearer ${tokenString}`;
            }
        }

        let urlPath = `/api/v1/messages/{id}/nack`;
        urlPath = urlPath.replace('{id}', encodeURIComponent(String(requestParameters['id'])));

        return {
            path: urlPath,
            method: 'POST',
            headers: headerParameters,
            query: queryParameters,
            body: NackRequestToJSON(requestParameters['nackRequest']),
        };
    }

    /**
     * Rejects an UNACKED message held by the caller (same rules and `409` fencing as `ackMessage`). With `requeue: true` (the default) it goes back to PENDING with `retry_count + 1`, claimable again after `delay_seconds`; if that would exceed the queue\'s `max_retries` it goes DEAD instead. With `requeue: false` it goes DEAD at once (monitor events NACKED, then DEAD). The body may be omitted. 
     * Reject a message
     */
    async nackMessageRaw(requestParameters: NackMessageRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<NackResult>> {
        const requestOptions = await this.nackMessageRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => NackResultFromJSON(jsonValue));
    }

    /**
     * Rejects an UNACKED message held by the caller (same rules and `409` fencing as `ackMessage`). With `requeue: true` (the default) it goes back to PENDING with `retry_count + 1`, claimable again after `delay_seconds`; if that would exceed the queue\'s `max_retries` it goes DEAD instead. With `requeue: false` it goes DEAD at once (monitor events NACKED, then DEAD). The body may be omitted. 
     * Reject a message
     */
    async nackMessage(requestParameters: NackMessageRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<NackResult> {
        const response = await this.nackMessageRaw(requestParameters, initOverrides);
        return await response.value();
    }

    /**
     * Creates request options for publishBatch without sending the request
     */
    async publishBatchRequestOpts(requestParameters: PublishBatchRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['topic'] == null) {
            throw new runtime.RequiredError(
                'topic',
                'Required parameter "topic" was null or undefined when calling publishBatch().'
            );
        }

        if (requestParameters['batchPublishRequest'] == null) {
            throw new runtime.RequiredError(
                'batchPublishRequest',
                'Required parameter "batchPublishRequest" was null or undefined when calling publishBatch().'
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

        let urlPath = `/api/v1/topics/{topic}/messages/batch`;
        urlPath = urlPath.replace('{topic}', encodeURIComponent(String(requestParameters['topic'])));

        return {
            path: urlPath,
            method: 'POST',
            headers: headerParameters,
            query: queryParameters,
            body: BatchPublishRequestToJSON(requestParameters['batchPublishRequest']),
        };
    }

    /**
     * Publishes 1 to 500 messages in one transaction: all or nothing. Each item behaves like a single publish; `results[i]` answers `messages[i]`. An item\'s `idempotency_key` lives in the same key space as the `Idempotency-Key` header of single publishes; a repeated key returns the original ids with `duplicate: true`, and a key reused with another topic, payload or headers makes the whole batch `409`. One payload over the limit makes the whole batch `413`; the body is capped at 10 MiB. 
     * Publish up to 500 messages to a topic at once
     */
    async publishBatchRaw(requestParameters: PublishBatchRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<BatchPublishResult>> {
        const requestOptions = await this.publishBatchRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => BatchPublishResultFromJSON(jsonValue));
    }

    /**
     * Publishes 1 to 500 messages in one transaction: all or nothing. Each item behaves like a single publish; `results[i]` answers `messages[i]`. An item\'s `idempotency_key` lives in the same key space as the `Idempotency-Key` header of single publishes; a repeated key returns the original ids with `duplicate: true`, and a key reused with another topic, payload or headers makes the whole batch `409`. One payload over the limit makes the whole batch `413`; the body is capped at 10 MiB. 
     * Publish up to 500 messages to a topic at once
     */
    async publishBatch(requestParameters: PublishBatchRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<BatchPublishResult> {
        const response = await this.publishBatchRaw(requestParameters, initOverrides);
        return await response.value();
    }

    /**
     * Creates request options for publishMessage without sending the request
     */
    async publishMessageRequestOpts(requestParameters: PublishMessageRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['topic'] == null) {
            throw new runtime.RequiredError(
                'topic',
                'Required parameter "topic" was null or undefined when calling publishMessage().'
            );
        }

        if (requestParameters['publishRequest'] == null) {
            throw new runtime.RequiredError(
                'publishRequest',
                'Required parameter "publishRequest" was null or undefined when calling publishMessage().'
            );
        }

        const queryParameters: any = {};

        const headerParameters: runtime.HTTPHeaders = {};

        headerParameters['Content-Type'] = 'application/json';

        if (requestParameters['idempotencyKey'] != null) {
            headerParameters['Idempotency-Key'] = String(requestParameters['idempotencyKey']);
        }

        if (this.configuration && this.configuration.accessToken) {
            const token = this.configuration.accessToken;
            const tokenString = await token("bearerAuth", []);

            if (tokenString) {
                headerParameters["Authorization"] = `Bearer ${tokenString}`;
            }
        }

        let urlPath = `/api/v1/topics/{topic}/messages`;
        urlPath = urlPath.replace('{topic}', encodeURIComponent(String(requestParameters['topic'])));

        return {
            path: urlPath,
            method: 'POST',
            headers: headerParameters,
            query: queryParameters,
            body: PublishRequestToJSON(requestParameters['publishRequest']),
        };
    }

    /**
     * Stores one copy of the message, as PENDING, in every queue bound to the topic, in one transaction (all queues or none). With no queue bound, the publish succeeds with empty `message_ids` and `queues`. With `delay_seconds`, the copies become claimable only at `available_at = published_at + delay_seconds`.  The payload is limited to 262,144 UTF-8 bytes by default (`MINIQUEUE_MAX_PAYLOAD_BYTES`); 262,144 bytes is accepted, one byte more is `413`, and an oversized body is refused while it is read.  **Idempotency**: with an `Idempotency-Key` header, the broker stores at most one message per key and publishing client. Keys are remembered for 24 hours. A repeat with the same topic, payload and headers returns `200` with the original `message_ids` and `duplicate: true` (a concurrent repeat waits for the first publish). A repeat with another topic, payload or headers is `409`. A failed publish frees its key. 
     * Publish a message to a topic
     */
    async publishMessageRaw(requestParameters: PublishMessageRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<PublishResult>> {
        const requestOptions = await this.publishMessageRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => PublishResultFromJSON(jsonValue));
    }

    /**
     * Stores one copy of the message, as PENDING, in every queue bound to the topic, in one transaction (all queues or none). With no queue bound, the publish succeeds with empty `message_ids` and `queues`. With `delay_seconds`, the copies become claimable only at `available_at = published_at + delay_seconds`.  The payload is limited to 262,144 UTF-8 bytes by default (`MINIQUEUE_MAX_PAYLOAD_BYTES`); 262,144 bytes is accepted, one byte more is `413`, and an oversized body is refused while it is read.  **Idempotency**: with an `Idempotency-Key` header, the broker stores at most one message per key and publishing client. Keys are remembered for 24 hours. A repeat with the same topic, payload and headers returns `200` with the original `message_ids` and `duplicate: true` (a concurrent repeat waits for the first publish). A repeat with another topic, payload or headers is `409`. A failed publish frees its key. 
     * Publish a message to a topic
     */
    async publishMessage(requestParameters: PublishMessageRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<PublishResult> {
        const response = await this.publishMessageRaw(requestParameters, initOverrides);
        return await response.value();
    }

    /**
     * Creates request options for receiveMessages without sending the request
     */
    async receiveMessagesRequestOpts(requestParameters: ReceiveMessagesRequest): Promise<runtime.RequestOpts> {
        if (requestParameters['queue'] == null) {
            throw new runtime.RequiredError(
                'queue',
                'Required parameter "queue" was null or undefined when calling receiveMessages().'
            );
        }

        const queryParameters: any = {};

        const headerParameters: runtime.HTTPHeaders = {};

        headerParameters['Content-Type'] = 'application/json';

        if (requestParameters['miniQueueInstance'] != null) {
            headerParameters['MiniQueue-Instance'] = String(requestParameters['miniQueueInstance']);
        }

        if (this.configuration && this.configuration.accessToken) {
            const token = this.configuration.accessToken;
            const tokenString = await token("bearerAuth", []);

            if (tokenString) {
                headerParameters["Authorization"] = `Bearer ${tokenString}`;
            }
        }

        let urlPath = `/api/v1/queues/{queue}/receive`;
        urlPath = urlPath.replace('{queue}', encodeURIComponent(String(requestParameters['queue'])));

        return {
            path: urlPath,
            method: 'POST',
            headers: headerParameters,
            query: queryParameters,
            body: ReceiveRequestToJSON(requestParameters['receiveRequest']),
        };
    }

    /**
     * Claims up to `max_messages` claimable messages at once, each as in `consumeMessage` (UNACKED, with a lease). With `wait_seconds > 0` it long-polls: it returns as soon as at least one message is claimable (woken by a notification) or after the wait, with an empty list; the same limit of waiting long polls per credential applies as to `consumeMessage`. An empty or absent body means `{\"max_messages\": 1, \"wait_seconds\": 0}`; a body of JSON `null` is `400`, as it is for every optional body. 
     * Claim up to 100 messages of a queue
     */
    async receiveMessagesRaw(requestParameters: ReceiveMessagesRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<runtime.ApiResponse<ReceiveResult>> {
        const requestOptions = await this.receiveMessagesRequestOpts(requestParameters);
        const response = await this.request(requestOptions, initOverrides);

        return new runtime.JSONApiResponse(response, (jsonValue) => ReceiveResultFromJSON(jsonValue));
    }

    /**
     * Claims up to `max_messages` claimable messages at once, each as in `consumeMessage` (UNACKED, with a lease). With `wait_seconds > 0` it long-polls: it returns as soon as at least one message is claimable (woken by a notification) or after the wait, with an empty list; the same limit of waiting long polls per credential applies as to `consumeMessage`. An empty or absent body means `{\"max_messages\": 1, \"wait_seconds\": 0}`; a body of JSON `null` is `400`, as it is for every optional body. 
     * Claim up to 100 messages of a queue
     */
    async receiveMessages(requestParameters: ReceiveMessagesRequest, initOverrides?: RequestInit | runtime.InitOverrideFunction): Promise<ReceiveResult> {
        const response = await this.receiveMessagesRaw(requestParameters, initOverrides);
        return await response.value();
    }

}
