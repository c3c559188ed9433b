import { TopicsApi, type Topic, type TopicCreated } from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import type { CallOptions } from '../options.js';

export function topicsResource(t: Transport) {
  return {
    /** Creates a topic (admin). ConflictError when it exists. */
    create: (name: string, options?: CallOptions): Promise<TopicCreated> => t.api(TopicsApi, options).createTopic({ createTopicRequest: { name } }),
    /** Every topic with the queues bound to it (view). */
    list: (options?: CallOptions): Promise<Topic[]> => t.api(TopicsApi, options).listTopics(),
    /** Deletes a topic (admin). ConflictError while queues are bound to it. */
    delete: (name: string, options?: CallOptions): Promise<void> => t.api(TopicsApi, options).deleteTopic({ topic: name }),
  };
}

export type TopicsResource = ReturnType<typeof topicsResource>;
