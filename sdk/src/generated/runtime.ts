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

export const BASE_PATH = "http://localhost".replace(/\/+$/, "");

export interface ConfigurationParameters {
    basePath?: string; // override base path
    fetchApi?: FetchAPI; // override for fetch implementation
    middleware?: Middleware[]; // middleware to apply before/after fetch requests
    queryParamsStringify?: (params: HTTPQuery) => string; // stringify function for query strings
    username?: string; // parameter for basic security
    password?: string; // parameter for basic security
    apiKey?: string | Promise<string> | ((name: string) => string | Promise<string>); // parameter for apiKey security
    accessToken?: string | Promise<string> | ((name?: string, scopes?: string[]) => string | Promise<string>); // parameter for oauth2 security
    headers?: HTTPHeaders; //header params we want to use on every request
    credentials?: RequestCredentials; //value for the credentials param we want to use on each request
}

export class Configuration {
    constructor(private configuration: ConfigurationParameters = {}) {}

    set config(configuration: Configuration) {
        this.configuration = configuration;
    }

    get basePath(): string {
        return this.configuration.basePath != null ? this.configuration.basePath : BASE_PATH;
    }

    get fetchApi(): FetchAPI | undefined {
        return this.configuration.fetchApi;
    }

    get middleware(): Middleware[] {
        return this.configuration.middleware || [];
    }

    get queryParamsStringify(): (params: HTTPQuery) => string {
        return this.configuration.queryParamsStringify || querystring;
    }

    get username(): string | undefined {
        return this.configuration.username;
    }

    get password(): string | undefined {
        return this.configuration.password;
    }

    get apiKey(): ((name: string) => string | Promise<string>) | undefined {
        const apiKey = this.configuration.apiKey;
        if (apiKey) {
            return typeof apiKey === 'function' ? apiKey : () => apiKey;
        }
        return undefined;
    }

    get accessToken(): ((name?: string, scopes?: string[]) => string | Promise<string>) | undefined {
        const accessToken = this.configuration.accessToken;
        if (accessToken) {
            return typeof accessToken === 'function' ? accessToken : async () => accessToken;
        }
        return undefined;
    }

    get headers(): HTTPHeaders | undefined {
        return this.configuration.headers;
    }

    get credentials(): RequestCredentials | undefined {
        return this.configuration.credentials;
    }
}

export const DefaultConfig = new Configuration();

/**
 * This is the base class for all generated API classes.
 */
export class BaseAPI {

    private static readonly jsonRegex = /^(:?application\/json|[^;/ \t]+\/[^;/ \t]+[+]json)[ \t]*(:?;.*)?$/i;
    private middleware: Middleware[];

    constructor(protected configuration = DefaultConfig) {
        this.middleware = configuration.middleware;
    }

    withMiddleware<T extends BaseAPI>(this: T, ...middlewares: Middleware[]) {
        const next = this.clone<T>();
        next.middleware = next.middleware.concat(...middlewares);
        return next;
    }

    withPreMiddleware<T extends BaseAPI>(this: T, ...preMiddlewares: Array<Middleware['pre']>) {
        const middlewares = preMiddlewares.map((pre) => ({ pre }));
        return this.withMiddleware<T>(...middlewares);
    }

    withPostMiddleware<T extends BaseAPI>(this: T, ...postMiddlewares: Array<Middleware['post']>) {
        const middlewares = postMiddlewares.map((post) => ({ post }));
        return this.withMiddleware<T>(...middlewares);
    }

    /**
     * Check if the given MIME is a JSON MIME.
     * JSON MIME examples:
     *   application/json
     *   application/json; charset=UTF8
     *   APPLICATION/JSON
     *   application/vnd.company+json
     * @param mime - MIME (Multipurpose Internet Mail Extensions)
     * @return True if the given MIME is JSON, false otherwise.
     */
    protected isJsonMime(mime: string | null | undefined): boolean {
        if (!mime) {
            return false;
        }
        return BaseAPI.jsonRegex.test(mime);
    }

    protected async request(context: RequestOpts, initOverrides?: RequestInit | InitOverrideFunction): Promise<Response> {
        const { url, init } = await this.createFetchParams(context, initOverrides);
        const response = await this.fetchApi(url, init);
        if (response && (response.status >= 200 && response.status < 300)) {
            return response;
        }
        throw new ResponseError(response, 'Response returned an error code');
    }

    private async createFetchParams(context: RequestOpts, initOverrides?: RequestInit | InitOverrideFunction) {
        let url = this.configuration.basePath + context.path;
        if (context.query !== undefined && Object.keys(context.query).length !== 0) {
            // only add the querystring to the URL if there are query parameters.
            // this is done to avoid urls ending with a "?" character which buggy webservers
            // do not handle correctly sometimes.
            url += '?' + this.configuration.queryParamsStringify(context.query);
        }

        const headers = Object.assign({}, this.configuration.headers, context.headers);
        Object.keys(headers).forEach(key => headers[key] === undefined ? delete headers[key] : {});

        const initOverrideFn =
            typeof initOverrides === "function"
                ? initOverrides
                : async () => initOverrides;

        const initParams = {
            method: context.method,
            headers,
            body: context.body,
            credentials: this.configuration.credentials,
        };

        const overriddenInit: RequestInit = {
            ...initParams,
            ...(await initOverrideFn({
                init: initParams,
                context,
            }))
        };

        let body: any;
        if (isFormData(overriddenInit.body)
            || (overriddenInit.body instanceof URLSearchParams)
            || isBlob(overriddenInit.body)) {
          body = overriddenInit.body;
        } else if (this.isJsonMime(headers['Content-Type'])) {
          body = JSON.stringify(overriddenInit.body);
        } else {
          body = overriddenInit.body;
        }

        const init: RequestInit = {
            ...overriddenInit,
            body
        };

        return { url, init };
    }

    private fetchApi = async (url: string, init: RequestInit) => {
        let fetchParams = { url, init };
        for (const middleware of this.middleware) {
            if (middleware.pre) {
                fetchParams = await middleware.pre({
                    fetch: this.fetchApi,
                    ...fetchParams,
                }) || fetchParams;
            }
        }
        let response: Response | undefined = undefined;
        try {
            response = await (this.configuration.fetchApi || fetch)(fetchParams.url, fetchParams.init);
        } catch (e) {
            for (const middleware of this.middleware) {
                if (middleware.onError) {
                    response = await middleware.onError({
                        fetch: this.fetchApi,
                        url: fetchParams.url,
                        init: fetchParams.init,
                        error: e,
                        response: response ? response.clone() : undefined,
                    }) || response;
                }
            }
            if (response === undefined) {
              if (e instanceof Error) {
                throw new FetchError(e, 'The request failed and the interceptors did not return an alternative response');
              } else {
                throw e;
              }
            }
        }
        for (const middleware of this.middleware) {
            if (middleware.post) {
                response = await middleware.post({
                    fetch: this.fetchApi,
                    url: fetchParams.url,
                    init: fetchParams.init,
                    response: response.clone(),
                }) || response;
            }
        }
        return response;
    }

    /**
     * Create a shallow clone of `this` by constructing a new instance
     * and then shallow cloning data members.
     */
    private clone<T extends BaseAPI>(this: T): T {
        const constructor = this.constructor as any;
        const next = new constructor(this.configuration);
        next.middleware = this.middleware.slice();
        return next;
    }
};

function isBlob(value: any): value is Blob {
    return typeof Blob !== 'undefined' && value instanceof Blob;
}

function isFormData(value: any): value is FormData {
    return typeof FormData !== "undefined" && value instanceof FormData;
}

export class ResponseError extends Error {
    override name: "ResponseError" = "ResponseError";
    constructor(public response: Response, msg?: string) {
        super(msg);

        // restore prototype chain
        const actualProto = new.target.prototype;
        if (Object.setPrototypeOf) {
            Object.setPrototypeOf(this, actualProto);
        }
    }
}

export class FetchError extends Error {
    override name: "FetchError" = "FetchError";
    constructor(public cause: Error, msg?: string) {
        super(msg);

        // restore prototype chain
        const actualProto = new.target.prototype;
        if (Object.setPrototypeOf) {
            Object.setPrototypeOf(this, actualProto);
        }
    }
}

export class RequiredError extends Error {
    override name: "RequiredError" = "RequiredError";
    constructor(public field: string, msg?: string) {
        super(msg);

        // restore prototype chain
        const actualProto = new.target.prototype;
        if (Object.setPrototypeOf) {
            Object.setPrototypeOf(this, actualProto);
        }
    }
}

export const COLLECTION_FORMATS = {
    csv: ",",
    ssv: " ",
    tsv: "\t",
    pipes: "|",
};

export type FetchAPI = WindowOrWorkerGlobalScope['fetch'];

export type Json = any;
export type HTTPMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD';
export type HTTPHeaders = { [key: string]: string };
export type HTTPQuery = { [key: string]: string | number | null | boolean | Array<string | number | null | boolean> | Set<string | number | null | boolean> | HTTPQuery };
export type HTTPBody = Json | FormData | URLSearchParams;
export type HTTPRequestInit = { headers?: HTTPHeaders; method: HTTPMethod; credentials?: RequestCredentials; body?: HTTPBody };
export type ModelPropertyNaming = 'camelCase' | 'snake_case' | 'PascalCase' | 'original';

export type InitOverrideFunction = (requestContext: { init: HTTPRequestInit, context: RequestOpts }) => Promise<RequestInit>

export interface FetchParams {
    url: string;
    init: RequestInit;
}

export interface RequestOpts {
    path: string;
    method: HTTPMethod;
    headers: HTTPHeaders;
    query?: HTTPQuery;
    body?: HTTPBody;
}

export function querystring(params: HTTPQuery, prefix: string = ''): string {
    return Object.keys(params)
        .map(key => querystringSingleKey(key, params[key], prefix))
        .filter(part => part.length > 0)
        .join('&');
}

function querystringSingleKey(key: string, value: string | number | null | undefined | boolean | Array<string | number | null | boolean> | Set<string | number | null | boolean> | HTTPQuery, keyPrefix: string = ''): string {
    const fullKey = keyPrefix + (keyPrefix.length ? `[${key}]` : key);
    if (value instanceof Array) {
        const multiValue = value.map(singleValue => encodeURIComponent(String(singleValue)))
            .join(`&${encodeURIComponent(fullKey)}=`);
        return `${encodeURIComponent(fullKey)}=${multiValue}`;
    }
    if (value instanceof Set) {
        const valueAsArray = Array.from(value);
        return querystringSingleKey(key, valueAsArray, keyPrefix);
    }
    if (value instanceof Date) {
        return `${encodeURIComponent(fullKey)}=${encodeURIComponent(value.toISOString())}`;
    }
    if (value instanceof Object) {
        return querystring(value as HTTPQuery, fullKey);
    }
    return `${encodeURIComponent(fullKey)}=${encodeURIComponent(String(value))}`;
}

export function exists(json: any, key: string) {
    const value = json[key];
    return value !== null && value !== undefined;
}

export function mapValues(data: any, fn: (item: any) => any) {
    const result: { [key: string]: any } = {};
    for (const key of Object.keys(data)) {
        result[key] = fn(data[key]);
    }
    return result;
}

export function canConsumeForm(consumes: Consume[]): boolean {
    for (const consume of consumes) {
        if ('multipart/form-data' === consume.contentType) {
            return true;
        }
    }
    return false;
}

export interface Consume {
    contentType: string;
}

export interface RequestContext {
    fetch: FetchAPI;
    url: string;
    init: RequestInit;
}

export interface ResponseContext {
    fetch: FetchAPI;
    url: string;
    init: RequestInit;
    response: Response;
}

export interface ErrorContext {
    fetch: FetchAPI;
    url: string;
    init: RequestInit;
    error: unknown;
    response?: Response;
}

export interface Middleware {
    pre?(context: RequestContext): Promise<FetchParams | void>;
    post?(context: ResponseContext): Promise<Response | void>;
    onError?(context: ErrorContext): Promise<Response | void>;
}

export interface ApiResponse<T> {
    raw: Response;
    value(): Promise<T>;
}

export interface ResponseTransformer<T> {
    (json: any): T;
}

export class JSONApiResponse<T> {
    constructor(public raw: Response, private transformer: ResponseTransformer<T> = (jsonValue: any) => jsonValue) {}

    async value(): Promise<T> {
        return this.transformer(await this.raw.json());
    }
}

export class VoidApiResponse {
    constructor(public raw: Response) {}

    async value(): Promise<void> {
        return undefined;
    }
}

export class BlobApiResponse {
    constructor(public raw: Response) {}

    async value(): Promise<Blob> {
        return await this.raw.blob();
    };
}

export class TextApiResponse {
    constructor(public raw: Response) {}

    async value(): Promise<string> {
        return await this.raw.text();
    };
}
