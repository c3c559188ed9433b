import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A stand-in for the broker's `/ws/v1/stream`, as its design note describes it: welcome first,
 * confirms after "commit" (here: at once, or when the test releases them), resume by token,
 * deduplication by idempotency key. For testing the client's side of the protocol in isolation.
 */
export interface FakeStream {
  url: string;
  /** Every WebSocket message the server received, as text. */
  messages: string[];
  /** Every publish frame received, resends included. */
  publishes: Array<{ seq: number; idempotency_key?: string; payload: string }>;
  /** Payloads stored, once per idempotency key. */
  stored: Map<string, string>;
  handshakes: IncomingMessage[];
  /** While true, publishes are stored but not confirmed. */
  holdConfirms: boolean;
  /** Answer the next handshakes with this status instead of upgrading. */
  refuseWith: number | null;
  /** The `code` of the refusal's body. */
  refuseCode: string;
  cut(): void;
  close(): Promise<void>;
}

export async function startFakeStream(): Promise<FakeStream> {
  const http = createServer((_request, response) => response.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has('miniqueue.v1') ? 'miniqueue.v1' : false) });
  const sockets = new Set<WebSocket>();
  let streams = 0;
  const fake: FakeStream = {
    url: '',
    messages: [],
    publishes: [],
    stored: new Map(),
    handshakes: [],
    holdConfirms: false,
    refuseWith: null,
    refuseCode: 'not_found',
    cut: () => sockets.forEach((socket) => socket.terminate()),
    close: async () => {
      sockets.forEach((socket) => socket.terminate());
      await new Promise((resolve) => http.close(resolve));
    },
  };
  http.on('upgrade', (request, socket, head) => {
    fake.handshakes.push(request);
    if (fake.refuseWith !== null) {
      socket.end(
        `HTTP/1.1 ${fake.refuseWith} Refused\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"status":${fake.refuseWith},"code":"${fake.refuseCode}","message":"no streams here"}`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      const resume = new URL(request.url!, 'http://x').searchParams.get('resume');
      ws.send(
        JSON.stringify({
          type: 'welcome',
          stream_id: `st${++streams}`,
          resume_token: `tok${streams}`,
          resumed: resume !== null,
          limits: { max_message_bytes: 1_048_576 },
        }),
      );
      ws.on('message', (data) => {
        const text = data.toString();
        fake.messages.push(text);
        const parsed = JSON.parse(text);
        const frames = Array.isArray(parsed) ? parsed : [parsed];
        const answers = frames.filter((frame) => frame.type === 'publish').map((frame) => publish(fake, frame));
        if (!fake.holdConfirms && answers.length > 0) ws.send(JSON.stringify(answers));
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return fake;
}

function publish(fake: FakeStream, frame: { seq: number; idempotency_key?: string; payload: string }) {
  fake.publishes.push(frame);
  const key = frame.idempotency_key ?? `none-${fake.publishes.length}`;
  const duplicate = fake.stored.has(key);
  if (!duplicate) fake.stored.set(key, frame.payload);
  return { type: 'confirm', seq: frame.seq, message_ids: [`id-${key}`], queues: ['q'], duplicate };
}
