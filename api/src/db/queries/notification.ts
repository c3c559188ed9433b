import type { Queryable } from '../pool.js';

/** Sends NOTIFYs on any channels in one autocommit statement (realtime/notificationSender.ts). */
export async function notificationSendMany(db: Queryable, notifications: { channel: string; payload: string }[]): Promise<void> {
  await db.query('SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n (c, p)', [
    notifications.map((n) => n.channel),
    notifications.map((n) => n.payload),
  ]);
}
