/** Third-party images, pinned so that a redeploy never changes them by surprise. */
export const IMAGES = {
  postgres: 'postgres:16-bookworm',
  /** CloudNativePG runs its own operand images; this is operator 1.30.0's default. */
  cloudnativePgPostgres: 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie',
  prometheus: 'prom/prometheus:v2.55.1',
  grafana: 'grafana/grafana:11.4.0',
} as const;

/**
 * A Kubernetes rollout only happens when the pod template changes, so the broker image must name
 * one build: a tag other than `latest`, or a digest.
 */
export function assertPinnedImage(image: string): string {
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return image;
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const tag = lastSegment.includes(':') ? lastSegment.slice(lastSegment.indexOf(':') + 1) : undefined;
  if (!tag) throw new Error(`image ${image} has no tag: pin a version tag or a digest`);
  if (tag === 'latest') throw new Error(`image ${image} uses :latest: pin a version tag or a digest`);
  return image;
}
