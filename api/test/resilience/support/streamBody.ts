import http from 'node:http';

export interface StreamedAnswer {
  /** Undefined when the server closed the connection without an answer. */
  status?: number;
  body?: unknown;
  /** Body bytes handed to the socket when the response arrived or the connection broke. */
  sentAtEnd: number;
}

const CHUNK = Buffer.alloc(64 * 1024, 'a');

/**
 * POSTs a JSON body of `total` bytes in 64 KiB chunks, honouring back-pressure, and stops sending
 * as soon as the server answers. A server that reads (or buffers) the whole body before answering
 * can only answer once all of it was sent; one that refuses early answers with most still unsent.
 * `chunked`: no Content-Length, so the server cannot decide from the headers alone.
 */
export function streamBody(url: string, path: string, key: string, total: number, chunked: boolean): Promise<StreamedAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request({
      host: hostname,
      port,
      method: 'POST',
      path,
      agent: false,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(chunked ? {} : { 'content-length': String(total) }),
      },
    });
    request.on('response', (response) => {
      answered = true;
      const sentAtEnd = sent;
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (data: string) => (text += data));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null, sentAtEnd });
      });
    });
    // Once answered, the server may drop the connection under our remaining bytes: that is fine.
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      answered = true;
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') resolve({ sentAtEnd: sent });
      else reject(error);
    });
    const prefix = Buffer.from('{"payload":"');
    const pump = () => {
      while (!answered && sent < total) {
        const piece = sent === 0 ? prefix : CHUNK.subarray(0, Math.min(CHUNK.length, total - sent));
        sent += piece.length;
        if (!request.write(piece)) {
          request.once('drain', pump);
          return;
        }
      }
      if (!answered) request.end();
    };
    pump();
  });
}
