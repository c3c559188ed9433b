import type { ConsumerStream } from '../consumer/types.js';
import type { MonitorStream } from '../monitor/types.js';
import type { BrokerEndpoints } from '../http/endpoints.js';
import type { RetryPolicy } from '../http/retryPolicy.js';
import type { SocketEndpoint } from '../realtime/socket.js';
import { streamUrl, type OpenStreamSocket } from './socket.js';
import { StreamClient, StreamUnavailableError } from './stream.js';

export interface StreamRouteOptions {
  endpoint: SocketEndpoint;
  /** The broker's URLs and the one in use (see BrokerEndpoints). */
  endpoints?: BrokerEndpoints;
  instanceId?: string;
  retry: RetryPolicy;
  warn(message: string): void;
  open?: OpenStreamSocket;
}

/** What a settle does over HTTP, for when the stream cannot carry it. */
export type HttpSettles = Omit<ConsumerStream, 'subscribe'>;

/**
 * Sends a client's calls over its one stream, opened on first use, and over HTTP once the stream
 * turned out not to work here (told once). `close()` releases the stream; the next call opens a new one.
 */
export class StreamRoute {
  private stream: StreamClient | undefined;

  constructor(private readonly options: StreamRouteOptions) {}

  /** The call over the stream; over HTTP where streams do not work (also when that is found out mid-call). */
  via<T>(streamed: (stream: StreamClient) => Promise<T>, http: () => Promise<T>): Promise<T> {
    const stream = this.current();
    if (!stream) return http();
    return streamed(stream).catch((error: unknown) => {
      if (error instanceof StreamUnavailableError) return http();
      throw error;
    });
  }

  consumerStream(http: HttpSettles): ConsumerStream {
    return {
      subscribe: async (queue, prefetch, handlers) => {
        const stream = this.current();
        if (!stream) return null;
        try {
          return await stream.subscribe(queue, prefetch, {
            deliver: handlers.deliver,
            interrupted: handlers.interrupted,
            ended: (error) => handlers.ended(error, error instanceof StreamUnavailableError),
          });
        } catch (error) {
          if (error instanceof StreamUnavailableError) return null;
          throw error;
        }
      },
      ack: (id) =>
        this.via(
          (stream) => stream.ack(id),
          () => http.ack(id),
        ),
      nack: (id, options) =>
        this.via(
          (stream) => stream.nack(id, options),
          () => http.nack(id, options),
        ),
      extend: (id, seconds) =>
        this.via(
          (stream) => stream.extend(id, seconds),
          () => http.extend(id, seconds),
        ),
    };
  }

  /** The live feed over the stream; `watch` answers null where streams do not work (the monitor then uses /ws/monitor). */
  monitorStream(): MonitorStream {
    return {
      url: streamUrl(this.options.endpoint, {}).toString(),
      watch: async (queue, handlers) => {
        const stream = this.current();
        if (!stream) return null;
        try {
          return await stream.watch(queue, {
            ...handlers,
            ended: (error) => handlers.ended(error, error instanceof StreamUnavailableError),
          });
        } catch (error) {
          if (error instanceof StreamUnavailableError) return null;
          throw error;
        }
      },
    };
  }

  close(): void {
    if (this.stream?.available) this.stream.close();
    if (this.stream?.available !== false) this.stream = undefined;
  }

  private current(): StreamClient | undefined {
    this.stream ??= new StreamClient(this.options);
    return this.stream.available ? this.stream : undefined;
  }
}
