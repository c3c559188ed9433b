import type { Pool } from '../db/pool.js';
import { loginCodeDeleteExpired } from '../db/queries/loginCode.js';
import { sessionDeleteExpired } from '../db/queries/session.js';
import { wsTicketDeleteExpired } from '../db/queries/wsTicket.js';
import { deleteInBatches } from './inBatches.js';
import type { Job } from './job.js';

const SESSION_BATCH = 500;

/**
 * Deletes expired login codes, WebSocket tickets and sessions. Expired ones are already refused
 * when presented; deleting a session also announces its end (trigger), which closes its sockets.
 * Safe on any number of instances at once.
 */
export function authSweeper(pool: Pool): Job {
  return {
    name: 'auth-sweeper',
    async runOnce() {
      const codes = await loginCodeDeleteExpired(pool);
      const tickets = await wsTicketDeleteExpired(pool);
      const sessions = await deleteInBatches((limit) => sessionDeleteExpired(pool, limit), SESSION_BATCH);
      return { codes, tickets, sessions };
    },
  };
}
