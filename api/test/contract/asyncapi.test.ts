import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticSeverity, Parser, fromFile } from '@asyncapi/parser';
import { OpenAPISchemaParser } from '@asyncapi/openapi-schema-parser';
import { ASYNCAPI_PATH } from '../../src/http/routes/ops.js';
import { EVENTS_DROPPED, MAX_ACK_IDS, MAX_FRAMES_PER_MESSAGE, MAX_PREFETCH, MONITOR_VERBS, STREAM_PATH, STREAM_SUBPROTOCOL } from '@miniqueue/sdk';
import { droppedMarker, monitorEventsOfTopology } from '../../src/realtime/monitorEvents.js';
import { FRAME_TYPES } from '../../src/stream/frames.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { openapi } from '../helpers/contract.js';
import { asyncapi, assertFrame, assertMessage, frameTypes, payloadProblems, resolveLocal } from '../helpers/streamFrames.js';

const DESIGN_NOTE = fileURLToPath(new URL('../../src/stream/README.md', import.meta.url));

/** The frame types of a table of the design note: the backticked names in its first column. */
function noteTypes(heading: string): string[] {
  const note = readFileSync(DESIGN_NOTE, 'utf8');
  const table = note.slice(note.indexOf(heading)).split('\n\n')[1];
  return table
    .split('\n')
    .slice(2)
    .flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((match) => match[1]));
}

/** Every `$ref` into openapi.yaml, with where it stands in asyncapi.yaml. */
function openapiRefs(node: any, at = ''): { at: string; pointer: string }[] {
  if (node === null || typeof node !== 'object') return [];
  const own = typeof node.$ref === 'string' && node.$ref.startsWith('./openapi.yaml#/') ? [{ at, pointer: node.$ref.slice('./openapi.yaml#/'.length) }] : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => openapiRefs(value, `${at}/${key}`))];
}

const inOpenapi = (pointer: string) => pointer.split('/').reduce((at: any, part) => at?.[part], openapi);
/** What a schema reference finally names, read in asyncapi.yaml or in openapi.yaml. */
function target(node: any, inAsyncapi: boolean): any {
  if (typeof node?.$ref !== 'string') return node;
  if (node.$ref.startsWith('./openapi.yaml#/')) return target(inOpenapi(node.$ref.slice('./openapi.yaml#/'.length)), false);
  return inAsyncapi ? target(resolveLocal(node), true) : target(inOpenapi(node.$ref.slice(2)), false);
}
const frameSchema = (name: string) => resolveLocal(asyncapi.components.schemas[name]).schema;

describe('asyncapi.yaml describes /ws/v1/stream', () => {
  it('is a valid AsyncAPI 3.0 document, its OpenAPI schemas included', async () => {
    const parser = new Parser({ schemaParsers: [OpenAPISchemaParser()] });
    const { document, diagnostics } = await fromFile(parser, ASYNCAPI_PATH).parse();
    const problems = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error || d.severity === DiagnosticSeverity.Warning);
    expect(problems.map((d) => `${d.code} ${d.message} at ${d.path.join('/')}`)).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
    expect(document?.info().version()).toBe(openapi.info.version);
    expect(document?.channels().get('stream')?.address()).toBe('/ws/v1/stream');
    // The OpenAPI dialect is honoured: a nullable field of the shared Message accepts null.
    const message = document?.components().messages().get('deliver')?.payload()?.properties()?.message;
    expect(message?.properties()?.consumer_id?.type()).toEqual(['string', 'null']);
  });

  it('has every frame type of the design note, each in its direction, and no other', () => {
    expect(frameTypes('receive').sort()).toEqual(noteTypes('Client to broker:').sort());
    expect(frameTypes('send').sort()).toEqual(noteTypes('Broker to client:').sort());
    // The frames the server reads.
    expect(frameTypes('receive').sort()).toEqual([...FRAME_TYPES].sort());
  });

  it('takes every shared schema from openapi.yaml by reference, and each reference resolves', () => {
    const refs = openapiRefs(asyncapi);
    for (const ref of refs) expect(inOpenapi(ref.pointer), `${ref.at} → ${ref.pointer}`).toBeDefined();
    const named = new Set(refs.map((ref) => ref.pointer.split('/')[2]));
    for (const schema of ['Message', 'ErrorCode', 'Error', 'Payload', 'MessageHeaders', 'PublishResult', 'BatchAckResult', 'NackResult', 'ExtendResult']) {
      expect(named, schema).toContain(schema);
    }
  });

  it('answers as HTTP does: the fields of its answers are the HTTP answers’ own', () => {
    const answers: [string, string, string[]][] = [
      ['ConfirmFrame', 'PublishResult', []],
      ['AckedFrame', 'BatchAckResult', []],
      ['NackedFrame', 'NackResult', []],
      ['ExtendedFrame', 'ExtendResult', []],
      // A frame carries the error body without HTTP's reserved response_body.
      ['RejectFrame', 'Error', ['response_body']],
      ['ErrorFrame', 'Error', ['response_body']],
      ['SubscriptionEndedFrame', 'Error', ['response_body']],
    ];
    for (const [frame, http, left] of answers) {
      const schema = frameSchema(frame);
      const declared = openapi.components.schemas[http];
      for (const [field, property] of Object.entries<any>(declared.properties)) {
        if (left.includes(field)) continue;
        expect(target(schema.properties[field], true), `${frame}.${field}`).toBe(target(property, false));
      }
      // A frame with more than one form (extend's answer: one id or many) has the HTTP answer's fields all required in one of them.
      const forms: string[][] = schema.oneOf ? schema.oneOf.map((form: any) => [...schema.required, ...form.required]) : [schema.required];
      const wanted = declared.required.filter((field: string) => !left.includes(field));
      expect(
        forms.some((required) => wanted.every((field: string) => required.includes(field))),
        `${frame} requires ${wanted.join(', ')} in one form`,
      ).toBe(true);
    }
  });

  it('carries the live feed’s events as /ws/monitor sends them, every event type the broker has', () => {
    expect(frameSchema('EventFrame').properties.event).toEqual({ $ref: '#/components/schemas/MonitorEvent' });
    const types = asyncapi.components.schemas.MonitorEvent.properties.eventType.enum;
    expect([...types].sort()).toEqual(['CREATED', ...Object.keys(MONITOR_VERBS), EVENTS_DROPPED].sort());
    const timestamp = new Date().toISOString();
    const created = monitorEventsOfTopology({ kind: 'queue', op: 'INSERT', name: 'email-queue' }, timestamp)[0];
    for (const event of [created, droppedMarker(3, timestamp)]) {
      expect(payloadProblems('event', { type: 'event', sub: 'w', event }), JSON.stringify(event)).toBeNull();
    }
  });

  it('has examples, and every example is what its schema allows', () => {
    for (const [name, message] of Object.entries<any>(asyncapi.components.messages)) {
      expect(message.examples?.length, name).toBeGreaterThan(0);
      for (const example of message.examples) expect(payloadProblems(name, example.payload), `${name}: ${example.name}`).toBeNull();
    }
  });

  it('has the bounds and the subprotocol that the SDK writes once, for the broker and its clients', () => {
    const channel = asyncapi.channels.stream;
    expect(channel.address).toBe(STREAM_PATH);
    expect(channel['x-subprotocol']).toBe(STREAM_SUBPROTOCOL);
    expect(frameSchema('ClientFrames').maxItems).toBe(MAX_FRAMES_PER_MESSAGE);
    expect(frameSchema('AckFrame').properties.ids.maxItems).toBe(MAX_ACK_IDS);
    expect(asyncapi.components.schemas.Prefetch.maximum).toBe(MAX_PREFETCH);
    expect(frameSchema('CreditFrame').properties.prefetch.maximum).toBe(MAX_PREFETCH);
  });

  it('the frame check refuses what the document does not have', () => {
    const publish = { type: 'publish', seq: 1, topic: 'orders', payload: 'x' };
    expect(() => assertFrame('receive', publish)).not.toThrow();
    expect(() => assertMessage('receive', [publish, { type: 'unsubscribe', sub: 'a' }])).not.toThrow();
    expect(() => assertFrame('receive', { ...publish, type: 'shout' })).toThrow(/no client frame of type "shout"/);
    expect(() => assertFrame('send', publish)).toThrow(/no broker frame/);
    expect(() => assertFrame('receive', { ...publish, extra: true })).toThrow(/additional properties/);
    expect(() => assertFrame('receive', { ...publish, headers: { a: 1 } })).toThrow(/publish frame does not match/);
    expect(() => assertMessage('receive', [])).toThrow(/clientFrames/);
  });
});

describe('GET /asyncapi.yaml', () => {
  let mq: TestBroker;
  beforeAll(async () => {
    mq = await startTestBroker();
  });
  afterAll(() => mq.stop());

  it('serves the checked-in file', async () => {
    const response = await mq.get('/asyncapi.yaml');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('yaml');
    expect(response.body).toBe(readFileSync(ASYNCAPI_PATH, 'utf8'));
  });
});
