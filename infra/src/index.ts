/**
 * The Pulumi program. `miniqueue:target` picks the stack's shape: `local` (this machine's Docker
 * engine) or `kubernetes` (the current cluster). See infra/README.md for the config keys.
 */
import { deployKubernetes } from './kubernetes/index.js';
import { deployLocal } from './local/index.js';
import { readSettings } from './settings.js';

const settings = readSettings();
const deployed = settings.target === 'kubernetes' ? deployKubernetes(settings) : deployLocal(settings);

export const target = settings.target;
export const brokerUrl = deployed.brokerUrl;
export const grafanaUrl = deployed.grafanaUrl;
