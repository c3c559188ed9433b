import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase } from '../../src/db/embedded.js';
import './provided.js';

/**
 * One PostgreSQL server for the whole run; each test file makes its own database on it.
 * DATABASE_URL if given, else a container when a container runtime answers, else embedded.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('databaseUrl', process.env.DATABASE_URL);
    return;
  }
  const container = await startContainer();
  if (container) {
    project.provide('databaseUrl', container.url);
    return container.stop;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-test-'));
  const database = await startEmbeddedDatabase(dir);
  project.provide('databaseUrl', database.url);
  return async () => {
    await database.stop();
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
}

async function startContainer(): Promise<{ url: string; stop: () => Promise<void> } | null> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
  } catch {
    return null; // no container runtime here
  }
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:16-alpine').start();
  return { url: container.getConnectionUri(), stop: async () => void (await container.stop()) };
}
