/**
 * Names and labels. Kubernetes Services keep fixed names (not Pulumi's random suffixes) because
 * other parts find them by DNS: Grafana's datasource says `prometheus:9090`, Prometheus and the
 * metrics-key step say `miniqueue:8080`, the broker's DATABASE_URL says `postgres`.
 */
export type Component = 'broker' | 'postgres' | 'prometheus' | 'grafana';

export const SERVICE_NAMES: Record<Component, string> = {
  broker: 'miniqueue',
  postgres: 'postgres',
  prometheus: 'prometheus',
  grafana: 'grafana',
};

export const PORTS: Record<Component, number> = {
  broker: 8080,
  postgres: 5432,
  prometheus: 9090,
  grafana: 3000,
};

/** The labels that select a component's pods: they must never change after the first deploy. */
export function selectorLabels(component: Component, stack: string): Record<string, string> {
  return {
    'app.kubernetes.io/name': SERVICE_NAMES[component],
    'app.kubernetes.io/instance': stack,
  };
}

/** Selector labels plus the descriptive ones, for metadata. */
export function labels(component: Component, stack: string): Record<string, string> {
  return {
    ...selectorLabels(component, stack),
    'app.kubernetes.io/component': component,
    'app.kubernetes.io/part-of': 'miniqueue',
    'app.kubernetes.io/managed-by': 'pulumi',
  };
}

/** Docker object names on the local engine carry the stack, so two stacks can live side by side. */
export function dockerName(stack: string, part: string): string {
  return `miniqueue-${stack}-${part}`;
}

/** The in-cluster address of a component's Service. */
export function clusterUrl(component: Component, namespace: string, scheme = 'http'): string {
  return `${scheme}://${SERVICE_NAMES[component]}.${namespace}.svc.cluster.local:${PORTS[component]}`;
}

/** For objects that belong to the whole deployment rather than one component. */
export function partOfLabels(): Record<string, string> {
  return { 'app.kubernetes.io/part-of': 'miniqueue', 'app.kubernetes.io/managed-by': 'pulumi' };
}
