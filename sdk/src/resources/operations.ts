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
    /**
     * The broker's OpenAPI document as YAML text. The contract describes the document (a
     * mapping); the generated method would read it as JSON, so the raw answer's text is returned.
     */
    openapi: async (options?: CallOptions): Promise<string> => (await t.api(OperationsApi, options).getOpenApiRaw()).raw.text(),
  };
}

export type OperationsResource = ReturnType<typeof operationsResource>;
