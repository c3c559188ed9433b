/**
 * The largest body a single publish may have, over HTTP or as a stream frame. JSON escaping can
 * grow a payload; the cap leaves room for that and for the headers.
 */
export const singleBodyLimit = (maxPayloadBytes: number) => 4 * maxPayloadBytes + 64 * 1024;
