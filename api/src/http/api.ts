import type { Plugin } from '@hapi/hapi';
import type { AppContext } from './context.js';
import { topicRoutes } from './routes/topics.js';
import { queueRoutes } from './routes/queues.js';
import { publishRoutes } from './routes/publish.js';
import { consumeRoutes } from './routes/consume.js';
import { settleRoutes } from './routes/settle.js';
import { messageRoutes } from './routes/messages.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { clientRoutes } from './routes/clients.js';
import { authRoutes } from './routes/auth.js';
import { historyReplayRoutes } from './routes/historyReplay.js';
import { pushRoutes } from './routes/push.js';
import { queueConsumerRoutes } from './routes/queueConsumers.js';

/** Where the API lives: given once, when the plugin is registered (see server.ts). */
export const API_PREFIX = '/api/v1';

/** The API's routes, one file per resource, with paths relative to API_PREFIX. */
export const apiPlugin: Plugin<AppContext> = {
  name: 'miniqueue-api',
  register(server, ctx) {
    topicRoutes(server, ctx);
    queueRoutes(server, ctx);
    publishRoutes(server, ctx);
    consumeRoutes(server, ctx);
    settleRoutes(server, ctx);
    messageRoutes(server, ctx);
    dashboardRoutes(server, ctx);
    clientRoutes(server, ctx);
    authRoutes(server, ctx);
    historyReplayRoutes(server, ctx);
    pushRoutes(server, ctx);
    queueConsumerRoutes(server, ctx);
  },
};
