import * as docker from '@pulumi/docker';
import type * as pulumi from '@pulumi/pulumi';
import { join } from 'node:path';
import { REPO_ROOT } from '../files.js';
import { IMAGES } from '../images.js';

/**
 * The broker image: a given one is pulled; otherwise the repository's Dockerfile is built on this
 * engine. A local build is referred to by its image id, so a rebuild replaces the container.
 */
export function brokerImage(stack: string, image?: string): pulumi.Output<string> {
  if (image) return new docker.RemoteImage('miniqueue', { name: image, keepLocally: true }).imageId;
  const built = new docker.Image('miniqueue', {
    imageName: `miniqueue:${stack}`,
    build: { context: REPO_ROOT, dockerfile: join(REPO_ROOT, 'Dockerfile') },
    skipPush: true,
  });
  return built.repoDigest;
}

/** Third-party images, kept after a destroy so that the next `up` does not pull them again. */
export function pulledImages() {
  const pull = (name: keyof typeof IMAGES) => new docker.RemoteImage(name, { name: IMAGES[name], keepLocally: true }).imageId;
  return { postgres: pull('postgres'), prometheus: pull('prometheus'), grafana: pull('grafana') };
}
