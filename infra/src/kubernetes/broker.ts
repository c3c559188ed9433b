/**
 * The broker: stateless replicas behind one Service. Secrets reach the pods only through the
 * Secret `miniqueue`; everything else is plain env from brokerEnv().
 */
import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { SHUTDOWN_TIMEOUT_SECONDS, brokerEnv, type BrokerEnvInput, type SecretEnvName } from '../brokerEnv.js';
import { PORTS, SERVICE_NAMES, labels, selectorLabels } from '../naming.js';
import { disruptionBudget, needsAutoscaler, rollingUpdate, terminationGraceSeconds, type Resources, type Scaling } from '../sizing.js';
import type { ServiceType } from '../settings.js';
import { brokerProbes } from './probes.js';
import { IMAGE_USERS, restrictedContainer, restrictedPod } from './security.js';

const PRE_STOP_SECONDS = 5;

export interface BrokerArgs {
  namespace: pulumi.Input<string>;
  stack: string;
  image: string;
  env: BrokerEnvInput;
  secrets: Record<SecretEnvName, pulumi.Output<string> | undefined>;
  scaling: Scaling;
  resources: Resources;
  serviceType: ServiceType;
  dependsOn?: pulumi.Resource[];
}

export function createBroker(args: BrokerArgs) {
  const name = SERVICE_NAMES.broker;
  const metadata = { namespace: args.namespace, labels: labels('broker', args.stack) };
  const env = brokerEnv(args.env);
  const secretData: Record<string, pulumi.Output<string>> = {};
  for (const key of env.secret) {
    const value = args.secrets[key];
    if (!value) throw new Error(`no value for the secret ${key}`);
    secretData[key] = pulumi.secret(value);
  }
  const secret = new k8s.core.v1.Secret('miniqueue', { metadata: { ...metadata, name }, type: 'Opaque', stringData: secretData });

  const autoscaled = needsAutoscaler(args.scaling);
  const deployment = new k8s.apps.v1.Deployment(
    'miniqueue',
    {
      metadata: { ...metadata, name },
      spec: {
        replicas: args.scaling.replicas,
        selector: { matchLabels: selectorLabels('broker', args.stack) },
        strategy: { type: 'RollingUpdate', rollingUpdate: rollingUpdate() },
        template: {
          metadata: { labels: labels('broker', args.stack) },
          spec: {
            securityContext: restrictedPod(IMAGE_USERS.broker),
            terminationGracePeriodSeconds: terminationGraceSeconds(SHUTDOWN_TIMEOUT_SECONDS, PRE_STOP_SECONDS),
            // Spread replicas over nodes when there are several, so one node going down leaves others.
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'kubernetes.io/hostname',
                whenUnsatisfiable: 'ScheduleAnyway',
                labelSelector: { matchLabels: selectorLabels('broker', args.stack) },
              },
            ],
            containers: [
              {
                name: 'miniqueue',
                image: args.image,
                ports: [{ name: 'http', containerPort: PORTS.broker }],
                env: [
                  ...Object.entries(env.plain).map(([envName, value]) => ({ name: envName, value })),
                  ...env.secret.map((envName) => ({ name: envName, valueFrom: { secretKeyRef: { name, key: envName } } })),
                ],
                ...brokerProbes(),
                // Endpoints are removed while the pod sleeps, so no new request arrives after SIGTERM.
                lifecycle: { preStop: { exec: { command: ['sleep', String(PRE_STOP_SECONDS)] } } },
                resources: args.resources,
                securityContext: restrictedContainer(),
                // The root filesystem is read-only; Node and its libraries may still write temporary files.
                volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
              },
            ],
            volumes: [{ name: 'tmp', emptyDir: {} }],
          },
        },
      },
    },
    {
      dependsOn: [secret, ...(args.dependsOn ?? [])],
      // Once the HPA owns the replica count, a redeploy must not reset it to the configured start.
      ignoreChanges: autoscaled ? ['spec.replicas'] : [],
    },
  );

  const service = new k8s.core.v1.Service('miniqueue', {
    metadata: { ...metadata, name },
    spec: {
      type: args.serviceType,
      selector: selectorLabels('broker', args.stack),
      ports: [{ name: 'http', port: PORTS.broker, targetPort: 'http' }],
    },
  });

  const pdb = new k8s.policy.v1.PodDisruptionBudget('miniqueue', {
    metadata: { ...metadata, name },
    spec: { ...disruptionBudget(), selector: { matchLabels: selectorLabels('broker', args.stack) } },
  });

  const hpa = autoscaled
    ? new k8s.autoscaling.v2.HorizontalPodAutoscaler('miniqueue', {
        metadata: { ...metadata, name },
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name },
          minReplicas: args.scaling.replicas,
          maxReplicas: args.scaling.maxReplicas,
          metrics: [
            {
              type: 'Resource',
              resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: args.scaling.targetCpuUtilization } },
            },
          ],
        },
      })
    : undefined;

  return { secret, deployment, service, pdb, hpa };
}
