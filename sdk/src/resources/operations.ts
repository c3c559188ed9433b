import { OperationsApi, type Health, type Info } from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import type { CallOptions } from '../options.js';

export function operationsResource(t: Transport) {
  return {
    /** `{status: 'UP'}`; UnavailableError when the broker cannot reach its database. */
    health: (options?: CallOptions): Promise<Health> => t.api(OperationsApi, options).getHealth(),
    /** Version, commit and whether GitHub sign-in is configured. */
    info: (options?: CallOptions): Promise<Info> => t.api(OperationsApi, options).getInfo(),
    /** Prometheus metrics as text (metrics or admin). */
    metrics: (options?: CallOptions): Promise<string> => t.api(OperationsApi, options).getMetrics(),
    /** The broker's OpenAPI document as YAML. */
    openapi: (options?: CallOptions): Promise<string> => t.api(OperationsApi, options).getOpenApi(),
  };
}

export type OperationsResource = ReturnType<typeof operationsResource>;
