/** The PostgreSQL that the stacks run themselves: one role and one database, both `miniqueue`. */
export const DATABASE = { user: 'miniqueue', name: 'miniqueue' } as const;

/** A connection string; the password is percent-encoded, so any characters are safe in it. */
export function postgresUrl(parts: { host: string; port: number; password: string; query?: string }): string {
  const password = encodeURIComponent(parts.password);
  return `postgres://${DATABASE.user}:${password}@${parts.host}:${parts.port}/${DATABASE.name}${parts.query ? `?${parts.query}` : ''}`;
}
