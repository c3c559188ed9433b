import type { Plugin, Server } from '@hapi/hapi';
import type { RealtimeContext } from './context.js';
import { RealtimeHub, type RealtimeOptions } from './hub.js';

export const REALTIME_PLUGIN = 'miniqueue-realtime';

export interface RealtimePluginOptions extends RealtimeOptions {
  context: RealtimeContext;
}

/**
 * WebSockets ride on hapi's own listener ('upgrade' events), so they share its port and its
 * lifecycle: they start taking handshakes once the server listens, and close when it stops.
 */
export const realtimePlugin: Plugin<RealtimePluginOptions> = {
  name: REALTIME_PLUGIN,
  register(server, { context, ...options }) {
    const hub = new RealtimeHub(context, server.listener, options);
    server.expose('hub', hub);
    server.ext('onPostStart', () => hub.start());
    server.ext('onPreStop', () => hub.stop());
  },
};

/** The WebSocket side of a built server. */
export function realtimeHub(server: Server): RealtimeHub {
  return (server.plugins as unknown as Record<string, { hub: RealtimeHub }>)[REALTIME_PLUGIN].hub;
}
