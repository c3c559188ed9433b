import WebSocket from 'ws';

/**
 * One dashboard watching: a /ws/monitor socket, authenticated as a program would (Bearer header,
 * no Origin), that reads every frame. Frames are only counted: a real dashboard parses them in a
 * browser, not in the broker, so the cost that matters is the broker's.
 */
export interface MonitorWatch {
  frames(): number;
  bytes(): number;
  close(): Promise<void>;
}

export function watchMonitor(baseUrl: string, key: string): Promise<MonitorWatch> {
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws/monitor`;
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${key}` } });
  let frames = 0;
  let bytes = 0;
  socket.on('message', (data: WebSocket.RawData) => {
    frames += 1;
    bytes += Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : (data as Buffer).byteLength;
  });
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => reject(new Error(`/ws/monitor refused: ${response.statusCode}`)));
    socket.once('error', reject);
    socket.once('open', () => {
      socket.off('error', reject);
      socket.on('error', () => undefined); // a late error is seen as the close that follows it
      resolve({
        frames: () => frames,
        bytes: () => bytes,
        close: () =>
          new Promise<void>((done) => {
            if (socket.readyState === WebSocket.CLOSED) return done();
            socket.once('close', () => done());
            socket.close();
            setTimeout(() => {
              socket.terminate();
              done();
            }, 2_000).unref();
          }),
      });
    });
  });
}
