/** The broker keeps at most this many characters (UTF-16 code units) of a nack reason. */
export const MAX_NACK_REASON_LENGTH = 500;

/**
 * What the consumer tells the broker when a handler throws: the error's message (or the thrown
 * value as text), without NUL (which the broker refuses), cut to the broker's limit. The cut
 * never leaves half a surrogate pair, which would no longer be valid text.
 */
export function nackReason(thrown: unknown): string {
  const text = describe(thrown).replaceAll('\0', '');
  if (text.length <= MAX_NACK_REASON_LENGTH) return text;
  const cut = text.slice(0, MAX_NACK_REASON_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  const endsInHighSurrogate = last >= 0xd800 && last <= 0xdbff;
  return endsInHighSurrogate ? cut.slice(0, -1) : cut;
}

function describe(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  try {
    return String(thrown);
  } catch {
    return ''; // e.g. an object without a prototype: nothing to say, and the nack must still go out
  }
}
