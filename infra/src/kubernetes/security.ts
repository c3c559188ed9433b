/** Every container runs unprivileged, with nothing to escalate to. */
export function restrictedContainer(readOnlyRootFilesystem = true) {
  return {
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem,
    capabilities: { drop: ['ALL'] },
  };
}

/** Pod-level: a fixed non-root user (the image's own), and files in volumes owned by its group. */
export function restrictedPod(user: number) {
  return {
    runAsNonRoot: true,
    runAsUser: user,
    runAsGroup: user,
    fsGroup: user,
    seccompProfile: { type: 'RuntimeDefault' },
  };
}

/** The uids the images run as: node (broker), postgres, nobody (Prometheus), grafana. */
export const IMAGE_USERS = { broker: 1000, postgres: 999, prometheus: 65534, grafana: 472 } as const;
