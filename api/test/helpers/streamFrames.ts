import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import { ASYNCAPI_PATH, OPENAPI_PATH } from '../../src/http/routes/ops.js';

/**
 * Holds the frames of /ws/v1/stream to asyncapi.yaml, as contract.ts holds HTTP responses to
 * openapi.yaml: every frame a test sends or receives goes through here, and one the document does
 * not describe (an unknown `type`, a missing or extra field, a value out of its schema) fails.
 *
 * Directions are the document's operations, which describe the broker: it `receive`s the frames a
 * client sends, and `send`s the frames a client receives (replies included).
 */
export type Direction = 'send' | 'receive';

export const asyncapi: any = YAML.parse(readFileSync(ASYNCAPI_PATH, 'utf8'));
const openapi: any = YAML.parse(readFileSync(OPENAPI_PATH, 'utf8'));

// Registered under their files' own URLs, so `./openapi.yaml#/…` in asyncapi.yaml and `#/…` in
// openapi.yaml resolve as they do for any tool that reads the files.
const ASYNCAPI_URL = pathToFileURL(ASYNCAPI_PATH).href;
const OPENAPI_URL = pathToFileURL(OPENAPI_PATH).href;
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv) => void)(ajv);
ajv.addSchema({ $id: OPENAPI_URL, components: openapi.components });
ajv.addSchema({ $id: ASYNCAPI_URL, components: { schemas: asyncapi.components.schemas } });

/** A node of asyncapi.yaml by a local `$ref`, following references to references. */
export function resolveLocal(node: any): any {
  if (typeof node?.$ref !== 'string' || !node.$ref.startsWith('#/')) return node;
  const parts = node.$ref
    .slice(2)
    .split('/')
    .map((part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  return resolveLocal(parts.reduce((at: any, part: string) => at?.[part], asyncapi));
}

interface Described {
  message: string;
  validate: ValidateFunction;
}

/** A message's payload: the schema inside its multi-format schema object, as ajv knows it. */
function described(messageRef: any): Described & { schema: any } {
  const message = resolveLocal(messageRef);
  const payloadRef: string = message.payload.$ref;
  const schema = resolveLocal(message.payload).schema;
  return { message: message.name, schema, validate: ajv.compile({ $ref: `${ASYNCAPI_URL}${payloadRef}/schema` }) };
}

const frames: Record<Direction, Map<string, Described>> = { send: new Map(), receive: new Map() };
const batches: Partial<Record<Direction, Described>> = {};

function learn(direction: Direction, messageRef: any): void {
  const payload = described(messageRef);
  if (payload.schema.type === 'array') {
    batches[direction] = payload;
    return;
  }
  const [type] = payload.schema.properties.type.enum as string[];
  frames[direction].set(type, payload);
}

for (const operation of Object.values<any>(asyncapi.operations)) {
  for (const message of operation.messages) learn(operation.action, message);
  for (const message of operation.reply?.messages ?? []) learn(operation.action === 'receive' ? 'send' : 'receive', message);
}

/** The frame types the document has in this direction. */
export const frameTypes = (direction: Direction): string[] => [...frames[direction].keys()];

const seenTypes: Record<Direction, Set<string>> = { send: new Set(), receive: new Set() };
/** The frame types that went through assertFrame so far, by direction. */
export const seen = (direction: Direction): string[] => [...seenTypes[direction]];

const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 500);

/** Throws unless asyncapi.yaml has this frame, in this direction, exactly as it is. */
export function assertFrame(direction: Direction, frame: unknown): void {
  const type = (frame as { type?: unknown } | null)?.type;
  const payload = typeof type === 'string' ? frames[direction].get(type) : undefined;
  if (!payload) throw new Error(`asyncapi.yaml has no ${direction === 'send' ? 'broker' : 'client'} frame of type ${shown(type)}: ${shown(frame)}`);
  if (!payload.validate(frame)) {
    throw new Error(`${type} frame does not match asyncapi.yaml: ${ajv.errorsText(payload.validate.errors)}\n${shown(frame)}`);
  }
  seenTypes[direction].add(type as string);
}

/** Throws unless one WebSocket message (its parsed JSON: a frame, or an array of frames) is as the document says. */
export function assertMessage(direction: Direction, data: unknown): void {
  if (!Array.isArray(data)) return assertFrame(direction, data);
  for (const frame of data) assertFrame(direction, frame);
  const batch = batches[direction];
  if (!batch) throw new Error(`asyncapi.yaml has no array of ${direction === 'send' ? 'broker' : 'client'} frames`);
  if (!batch.validate(data)) throw new Error(`${batch.message} does not match asyncapi.yaml: ${ajv.errorsText(batch.validate.errors)}`);
}

/** The problems of a payload against a message of the document (by its key in components.messages), or null. */
export function payloadProblems(message: string, payload: unknown): string | null {
  const { validate } = described({ $ref: `#/components/messages/${message}` });
  return validate(payload) ? null : ajv.errorsText(validate.errors);
}

const handshake = asyncapi.channels.stream['x-handshake'];
const refusalBody = ajv.compile({ $ref: new URL(handshake.body.$ref, ASYNCAPI_URL).href });

/** Throws unless a refused handshake is one the document lists, with the HTTP API's error body. */
export function assertRefusal(status: number, body: unknown): void {
  if (!refusalBody(body)) throw new Error(`handshake refusal body does not match asyncapi.yaml: ${ajv.errorsText(refusalBody.errors)}\n${shown(body)}`);
  const { code } = body as { code: string };
  const listed = handshake.refusals.some((refusal: any) => refusal.status === status && refusal.code === code);
  if (!listed) throw new Error(`asyncapi.yaml lists no handshake refusal ${status} ${code}`);
}

/** The close codes the document lists. */
export const closeCodes = (): number[] => asyncapi.channels.stream['x-close-codes'].map((close: any) => close.code);
