/**
 * What other workspaces' tests need to run against a real broker (through the package's
 * `./testing` entry): a broker on its own database or in its own process, and the few fixtures
 * and broker parts they share with the api's own tests. The run's PostgreSQL comes from
 * `./testing/global-setup`, and `./testing/log-scan` checks after each file that no secret
 * reached a log line.
 */
import './provided.js';

export { startTestBroker, type TestBroker, type TestBrokerOptions } from './broker.js';
export { createTestDatabase } from './database.js';
export { eventually } from './eventually.js';
export { spawnBroker, type BrokerProcess } from '../resilience/support/brokerProcess.js';
export { PUSH_ENV } from '../push/support.js';
export { startReceiver, type Receiver } from '../push/receiver.js';
export { createSession } from '../../src/auth/sessions.js';
export { newApiKey } from '../../src/auth/apiKeys.js';
// The SDK's tests run one lease sweep by hand (no cron runs in tests) and count held monitors.
export { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
export { realtimeHub } from '../../src/realtime/plugin.js';
// The dashboard's tests serve its build with the broker's own routes and policy.
export { DASHBOARD_CSP, DASHBOARD_DIST, dashboardStaticRoutes } from '../../src/http/routes/dashboardStatic.js';
