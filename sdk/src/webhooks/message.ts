/** A message as a push endpoint receives it (the body of the broker's POST). */
export interface PushedMessage {
  message_id: string;
  queue: string;
  topic: string;
  payload: string;
  headers: Record<string, string>;
  published_at: string;
  /** 0 on the first delivery; the broker also sends `MiniQueue-Delivery-Attempt` (this + 1). */
  retry_count: number;
}

/** Reads a verified body. Deliveries are at-least-once: make handling idempotent on `message_id`. */
export function parsePushedMessage(body: string | Uint8Array): PushedMessage {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return JSON.parse(text) as PushedMessage;
}
