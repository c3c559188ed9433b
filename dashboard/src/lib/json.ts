export type JsonCheck = { ok: true } | { ok: false; message: string };

/**
 * Whether text is valid JSON, and if not, where it breaks: the engine's own message, turned into a
 * line and column when it gives a position, because a textarea has no character offsets.
 */
export function checkJson(text: string): JsonCheck {
  if (text.trim() === '') return { ok: false, message: 'The payload is empty.' };
  try {
    JSON.parse(text);
    return { ok: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    if (!position) return { ok: false, message: `Not valid JSON: ${message}` };
    const offset = Number(position[1]);
    const before = text.slice(0, offset).split('\n');
    const detail = message.replace(/\s*(in JSON )?at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '');
    return { ok: false, message: `Not valid JSON at line ${before.length}, column ${before[before.length - 1].length + 1}: ${detail}` };
  }
}

/** UTF-8 size, the unit the broker's payload limit is counted in. */
export const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;
