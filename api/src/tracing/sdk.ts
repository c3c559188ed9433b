import { tracing } from './spans.js';

type Env = Record<string, string | undefined>;

const listOf = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * Whether the standard variables ask for spans: an exporter named in OTEL_TRACES_EXPORTER (other
 * than `none`), or an OTLP endpoint. Nothing set, nothing is exported and no SDK is loaded: a
 * broker that nobody traces does not send spans to a default localhost:4318 that is not there.
 */
export function tracingRequested(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = listOf(env.OTEL_TRACES_EXPORTER);
  if (exporters.length > 0) return exporters.some((name) => name !== 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export interface Tracing {
  /** Flushes the spans not yet exported, then stops the SDK. */
  stop(): Promise<void>;
  describe: string;
}

/**
 * Starts the OpenTelemetry Node SDK when asked for (tracingRequested), configured by its own
 * OTEL_* variables (exporter, OTLP endpoint, protocol, headers, sampler, propagators, resource
 * attributes); the service is `miniqueue` unless OTEL_SERVICE_NAME names it. No instrumentation
 * libraries are loaded: the broker makes its own messaging spans (spans.ts).
 */
export async function startTracing(env: Env = process.env): Promise<Tracing | null> {
  if (!tracingRequested(env)) return null;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'miniqueue';
  const sdk = new NodeSDK({ serviceName, instrumentations: [] });
  sdk.start();
  tracing.enabled = true;
  const exporters = listOf(env.OTEL_TRACES_EXPORTER);
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  return {
    describe: `tracing on: spans of service ${serviceName} to ${exporters.length ? exporters.join(', ') : 'otlp'} (${protocol})`,
    stop: async () => {
      tracing.enabled = false;
      await sdk.shutdown();
    },
  };
}
