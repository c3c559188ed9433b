/** Header lookup of a response, by lower-case or any-case name (what the SDK and generated code use). */
export interface ResponseHeaders {
  get(name: string): string | null;
}

/**
 * A response whose body has been read whole, inside the attempt (so a connection cut mid-body is
 * retried like any other failure). It has the part of fetch's Response the generated client and
 * the SDK read (status, headers, json, text, arrayBuffer, blob), without building a Response and
 * its body stream a second time per request.
 */
export class BufferedResponse {
  readonly ok: boolean;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: ResponseHeaders,
    private readonly bytes: Uint8Array | null,
  ) {
    this.ok = status >= 200 && status < 300;
  }

  async text(): Promise<string> {
    return this.bytes === null || this.bytes.length === 0 ? '' : decoder.decode(this.bytes);
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.bytes ?? new Uint8Array(0);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async blob(): Promise<Blob> {
    return new Blob(this.bytes ? [this.bytes as Uint8Array<ArrayBuffer>] : [], { type: this.headers.get('content-type') ?? '' });
  }

  /** What the generated client is typed to receive; it reads only the members above. */
  asResponse(): Response {
    return this as unknown as Response;
  }
}

const decoder = new TextDecoder();
