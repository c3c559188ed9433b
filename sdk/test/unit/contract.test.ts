import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { CLOSE_CODES, LIMITS, NAME_MAX_LENGTH, NAME_PATTERN, SCOPE_PATTERN } from '../../src/contract.js';

const openapi = YAML.parse(readFileSync(fileURLToPath(new URL('../../../openapi.yaml', import.meta.url)), 'utf8'));
const schemas = openapi.components.schemas;
const parameters = openapi.components.parameters;

describe('the constants the SDK shares with the CLI and the dashboard', () => {
  it('are the patterns openapi.yaml states', () => {
    expect(NAME_PATTERN.source).toBe(schemas.Name.pattern);
    expect(NAME_MAX_LENGTH).toBe(schemas.Name.maxLength);
    expect(SCOPE_PATTERN.source).toBe(schemas.Scope.pattern);
  });

  it('are the limits openapi.yaml states', () => {
    const queue = schemas.CreateQueueRequest.properties;
    expect(LIMITS).toEqual({
      defaultPayloadBytes: Number(/limited to ([\d,]+) UTF-8 bytes by default/.exec(JSON.stringify(openapi.paths))?.[1].replaceAll(',', '')),
      batchPublishMessages: schemas.BatchPublishRequest.properties.messages.maxItems,
      batchAckMessages: schemas.BatchAckRequest.properties.message_ids.maxItems,
      receiveMaxMessages: schemas.ReceiveRequest.properties.max_messages.maximum,
      waitSeconds: schemas.ReceiveRequest.properties.wait_seconds.maximum,
      delaySeconds: schemas.DelaySeconds.maximum,
      expiresInSeconds: { min: schemas.ExpiresInSeconds.minimum, max: schemas.ExpiresInSeconds.maximum },
      messageTtlSeconds: { min: schemas.MessageTtlSeconds.minimum, max: schemas.MessageTtlSeconds.maximum },
      priority: { min: schemas.Priority.minimum, max: schemas.Priority.maximum },
      maxPriority: { min: schemas.MaxPriority.minimum, max: schemas.MaxPriority.maximum },
      maxInFlightPerKey: { min: schemas.MaxInFlightPerKey.minimum, max: schemas.MaxInFlightPerKey.maximum },
      groupKeyLength: schemas.GroupKey.maxLength,
      ackTimeoutSeconds: { min: queue.ack_timeout_seconds.minimum, max: queue.ack_timeout_seconds.maximum },
      maxRetries: { min: queue.max_retries.minimum, max: queue.max_retries.maximum },
      ackedRetentionHours: { min: schemas.AckedRetentionHours.minimum, max: schemas.AckedRetentionHours.maximum },
      pageSize: parameters.LimitQuery.schema.maximum,
      idempotencyKeyLength: schemas.IdempotencyKey.maxLength,
    });
  });

  it('are the close codes openapi.yaml lists', () => {
    const listed = /Close codes:([\s\S]*?)\n\n/.exec(openapi.info.description)?.[1] ?? '';
    const codes = [...listed.matchAll(/`(\d{4})`/g)].map((match) => Number(match[1])).sort();
    expect(Object.values(CLOSE_CODES).sort()).toEqual(codes);
  });
});
