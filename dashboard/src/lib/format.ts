const numbers = new Intl.NumberFormat('en');

export const formatCount = (value: number): string => numbers.format(value);

/** A duration for people: "just now", "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatAge(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 1) return 'just now';
  const s = Math.floor(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** Date and time in the reader's locale and zone, to the second. */
export function formatTime(value: Date | string | null | undefined): string {
  if (!value) return '—';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** Time of day only, for the live feed where everything is recent. */
export function formatClock(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** A payload as it is best read: indented when it is JSON, as sent otherwise. */
export function prettyPayload(payload: string): { text: string; json: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(payload), null, 2), json: true };
  } catch {
    return { text: payload, json: false };
  }
}

export const shortId = (id: string): string => id.slice(0, 8);

/** The day only, where the time would be noise ("registered since"). */
export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return '—';
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** The first letter in capitals, for a phrase that starts a sentence. */
export const capitalize = (text: string): string => (text ? `${text[0].toUpperCase()}${text.slice(1)}` : text);

/** A payload on one line, for a table cell: JSON without its indentation, anything else as sent. */
export function compactPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload));
  } catch {
    return payload.replace(/\s+/g, ' ');
  }
}
