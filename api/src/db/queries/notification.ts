import type { Queryable } from '../pool.js';

/** Sends NOTIFYs on any channels in one autocommit statement (realtime/notificationSender.ts). */
export async function notificationSendMany(db: Queryable, notifications: { channel: string; payload: string }[]): Promise<void> {
  await db.query('SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n (c, p)', [
    notifications.map((n) => n.channel),
    notifications.map((n) => n.payload),
  ]);
}

/** Tells the instances holding the dispatcher's chosen sockets (channel miniqueue_ws_push), in one statement. */
export async function wsPushNotify(db: Queryable, payloads: string[]): Promise<void> {
  if (payloads.length === 0) return;
  await db.query("SELECT pg_notify('miniqueue_ws_push', p) FROM unnest($1::text[]) AS p", [payloads]);
}

/** Tells the dispatcher, wherever it runs, of consumer sockets that stopped or resumed reading (channel miniqueue_ws_reading). */
export async function wsReadingNotify(db: Queryable, payloads: string[]): Promise<void> {
  if (payloads.length === 0) return;
  await db.query("SELECT pg_notify('miniqueue_ws_reading', p) FROM unnest($1::text[]) AS p", [payloads]);
}
