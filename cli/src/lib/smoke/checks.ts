import { auth, metrics, revocation, scopes } from './accessChecks.js';
import { deadLetter, idempotency, publishConsumeAck } from './flowChecks.js';
import type { Check } from './types.js';
import { cors, dashboard, health } from './webChecks.js';

/** In the order they run: reachability first, so a down broker fails on its first line. */
export const CHECKS: Check[] = [health, auth, scopes, publishConsumeAck, deadLetter, idempotency, revocation, metrics, cors, dashboard];
