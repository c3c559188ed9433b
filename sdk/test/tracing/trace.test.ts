import { SpanKind, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, newApiKey, PUSH_ENV, spawnBroker, startReceiver, type BrokerProcess, type Receiver } from '@miniqueue/api/testing';
import { MiniQueue, type Message } from '../../src/index.js';
import { startCollector, type CollectedSpan } from './collector.js';

/** One trace from the producer's span to the ack: two brokers export over OTLP, this process keeps its own spans in memory. */
describe('a message traced from producer to ack across two brokers', () => {
  const adminKey = newApiKey().key;
  const local = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(local)] });
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let receiver: Receiver;
  const brokers: BrokerProcess[] = [];

  beforeAll(async () => {
    provider.register(); // the W3C propagator and an async context, as an application's tracing setup does
    collector = await startCollector();
    receiver = await startReceiver();
    const databaseUrl = await createTestDatabase();
    for (const service of ['miniqueue-a', 'miniqueue-b']) {
      brokers.push(
        await spawnBroker({
          DATABASE_URL: databaseUrl,
          MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey,
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_SERVICE_NAME: service,
          OTEL_BSP_SCHEDULE_DELAY: '100',
          ...PUSH_ENV,
        }),
      );
    }
  });
  afterAll(async () => {
    for (const broker of brokers) await broker.kill();
    collector?.server.close();
    await receiver?.close();
    await provider.shutdown();
    trace.disable();
  });

  it('keeps one trace id from the producer through both brokers to the consumer and its ack', async () => {
    const [a, b] = brokers;
    expect(a.output()).toContain('tracing on: spans of service miniqueue-a to otlp (http/json)');
    const admin = new MiniQueue({ url: a.url, apiKey: adminKey });
    await admin.topics.create('traced');
    await admin.queues.create('traced', 'traced');
    // A second queue on the topic, pushed to an endpoint: the push carries the trace on.
    await admin.queues.create('traced-push', 'traced');
    await admin.push.set('traced-push', `${receiver.url}/hook`);
    // A third whose claim is never acked: its lease runs out and, with no retries, it goes dead.
    await admin.queues.create('traced-expire', 'traced', { ackTimeoutSeconds: 1, maxRetries: 0 });

    // The producer publishes on broker A inside a span of its own work; the consumer takes it from broker B.
    const producer = new MiniQueue({ url: a.url, apiKey: adminKey });
    const work = trace.getTracer('test').startSpan('checkout');
    const traceId = work.spanContext().traceId;
    const published = await context.with(trace.setSpan(context.active(), work), () => producer.publish('traced', 'order 1'));
    work.end();
    const messageId = published.message_ids[published.queues.indexOf('traced')];

    const seen: { message: Message; traceId: string | undefined }[] = [];
    const consumerClient = new MiniQueue({ url: b.url, apiKey: adminKey });
    const consumer = consumerClient.consumer('traced', (message) => {
      seen.push({ message, traceId: trace.getActiveSpan()?.spanContext().traceId });
    });
    consumer.start();
    await expect.poll(() => seen.length, { timeout: 15_000 }).toBe(1);
    await consumer.stop();
    producer.close();
    consumerClient.close();

    // The handler ran in a span of the producer's trace, and the message carried a traceparent of that trace.
    expect(seen[0].traceId).toBe(traceId);
    expect(seen[0].message.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    const brokerSpan = (service: string, name: string) => (span: CollectedSpan) => span.service === service && span.name === name;
    await expect.poll(() => collector.spans.some(brokerSpan('miniqueue-b', 'ack traced')), { timeout: 15_000 }).toBe(true);
    const publish = collector.spans.find(brokerSpan('miniqueue-a', 'publish traced'));
    const deliver = collector.spans.find(brokerSpan('miniqueue-b', 'deliver traced'));
    const ack = collector.spans.find(brokerSpan('miniqueue-b', 'ack traced'));
    for (const span of [publish, deliver, ack]) expect(span?.traceId).toBe(traceId);
    expect(publish?.attributes).toMatchObject({
      'messaging.system': 'miniqueue',
      'messaging.operation.type': 'send',
      'messaging.destination.name': 'traced',
      'messaging.batch.message_count': 3,
      'miniqueue.message_ids': published.message_ids,
      'miniqueue.queues': published.queues,
    });
    expect(deliver?.attributes).toMatchObject({
      'messaging.operation.type': 'receive',
      'messaging.destination.name': 'traced',
      'messaging.message.id': messageId,
    });
    expect(ack?.attributes).toMatchObject({ 'messaging.operation.type': 'settle', 'messaging.operation.name': 'ack', 'messaging.message.id': messageId });

    // The pushed copy: a CLIENT span of whichever broker pushed it, and its request carries that span.
    const pushedId = published.message_ids[published.queues.indexOf('traced-push')];
    await expect.poll(() => collector.spans.some((span) => span.name === 'push traced-push'), { timeout: 15_000 }).toBe(true);
    const push = collector.spans.find((span) => span.name === 'push traced-push') as CollectedSpan;
    expect(push).toMatchObject({ traceId, parentSpanId: publish?.spanId });
    expect(push.attributes).toMatchObject({ 'messaging.message.id': pushedId, 'http.response.status_code': 200 });
    const pushed = receiver.received.find((request) => request.headers['miniqueue-message-id'] === pushedId);
    expect(pushed?.headers.traceparent).toBe(`00-${traceId}-${push.spanId}-01`);

    // The copy claimed and left: the lease sweep's span, in the same trace, says it went dead.
    const expiringId = published.message_ids[published.queues.indexOf('traced-expire')];
    expect((await admin.consume('traced-expire'))?.message_id).toBe(expiringId);
    await expect.poll(() => collector.spans.some((span) => span.name === 'expire traced-expire'), { timeout: 15_000 }).toBe(true);
    const expired = collector.spans.find((span) => span.name === 'expire traced-expire') as CollectedSpan;
    expect(expired).toMatchObject({ traceId, parentSpanId: publish?.spanId });
    expect(expired.attributes).toMatchObject({ 'messaging.message.id': expiringId, 'miniqueue.dead_lettered': true, 'miniqueue.requeued': false });

    // This process's spans: the SDK's publish (a child of the step) and the handler's process span,
    // a child of the broker's publish span and linked to it.
    const ours = local.getFinishedSpans();
    const named = (name: string) => ours.find((span) => span.name === name) as ReadableSpan;
    const sdkPublish = named('publish traced');
    const processing = named('process traced');
    expect(sdkPublish.kind).toBe(SpanKind.PRODUCER);
    expect(sdkPublish.spanContext().traceId).toBe(traceId);
    expect(publish?.parentSpanId).toBe(sdkPublish.spanContext().spanId);
    expect(sdkPublish.parentSpanContext?.spanId).toBe(work.spanContext().spanId);
    expect(processing.kind).toBe(SpanKind.CONSUMER);
    expect(processing.spanContext().traceId).toBe(traceId);
    expect(processing.parentSpanContext?.spanId).toBe(publish?.spanId);
    expect(processing.links.map((link) => link.context.spanId)).toEqual([publish?.spanId]);
    expect(processing.attributes).toMatchObject({ 'messaging.message.id': messageId, 'miniqueue.outcome': 'acked' });
  });
});
