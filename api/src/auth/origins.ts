const wildcard = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/**
 * Whether a browser origin may use the API or open a WebSocket; the same rules hapi applies to
 * HTTP (exact origins, `*`, or `https://*.example.com` patterns). No Origin header means a program,
 * not a browser, and is allowed.
 */
export function originAllowed(allowed: string[], origin: string | undefined): boolean {
  if (origin === undefined) return true;
  return allowed.some((entry) => (entry.includes('*') ? wildcard(entry).test(origin) : entry === origin));
}
