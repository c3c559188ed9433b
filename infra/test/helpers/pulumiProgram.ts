/**
 * Runs the Pulumi program under mocks (no CLI, no engine, no cluster) and records every resource
 * the program registers, with its inputs as the engine would receive them: secrets still wrapped.
 */
import * as pulumi from '@pulumi/pulumi';

export interface RegisteredResource {
  type: string;
  name: string;
  inputs: Record<string, any>;
}

export interface ProgramRun {
  resources: RegisteredResource[];
  outputs: { target: string; brokerUrl: string; grafanaUrl: string };
  /** The raw stack outputs, to check that none is secret material. */
  rawOutputs: Record<string, unknown>;
}

/** What a provider would report back: the inputs, plus the few outputs the program reads. */
function stateFor(type: string, name: string, inputs: Record<string, any>): Record<string, unknown> {
  switch (type) {
    case 'docker:index/image:Image':
      return { ...inputs, repoDigest: 'sha256:0000built' };
    case 'docker:index/remoteImage:RemoteImage':
      return { ...inputs, imageId: `${inputs.name}@sha256:0000pulled` };
    case 'kubernetes:core/v1:Service':
      return inputs.spec?.type === 'LoadBalancer' ? { ...inputs, status: { loadBalancer: { ingress: [{ hostname: `${name}.lb.example.net` }] } } } : inputs;
    default:
      return inputs;
  }
}

const valueOf = <T>(output: pulumi.Output<T> | T): Promise<T> =>
  pulumi.Output.isInstance(output) ? new Promise((resolve) => (output as pulumi.Output<T>).apply(resolve)) : Promise.resolve(output as T);

export async function runProgram(stack: string, config: Record<string, string>, secretKeys: string[]): Promise<ProgramRun> {
  const resources: RegisteredResource[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        resources.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: `${args.name}-id`, state: stateFor(args.type, args.name, args.inputs) };
      },
      call: (args) => args.inputs,
    },
    'miniqueue',
    stack,
    false,
  );
  const prefixed = (key: string) => `miniqueue:${key}`;
  pulumi.runtime.setAllConfig(Object.fromEntries(Object.entries(config).map(([key, value]) => [prefixed(key), value])), secretKeys.map(prefixed));
  const program: Record<string, unknown> = await import('../../src/index.js');
  const outputs = {
    target: String(await valueOf(program.target as string)),
    brokerUrl: await valueOf(program.brokerUrl as pulumi.Output<string>),
    grafanaUrl: await valueOf(program.grafanaUrl as pulumi.Output<string>),
  };
  // Every registration has reached the mocks once the RPC queue is drained.
  await pulumi.runtime.disconnect();
  return { resources, outputs, rawOutputs: program };
}

export const SECRET_SIG_KEY = '4dabf18193072939515e22adb298388d';
export const SECRET_SIG = '1b47061264138c4ac30d75fd1eb44270';

const isSecretWrapper = (value: unknown): value is { value: unknown } =>
  typeof value === 'object' && value !== null && (value as Record<string, unknown>)[SECRET_SIG_KEY] === SECRET_SIG;

/** Every string in a value, with whether it sits inside a Pulumi secret. */
export function strings(value: unknown, insideSecret = false, path = ''): { path: string; text: string; secret: boolean }[] {
  if (isSecretWrapper(value)) return strings(value.value, true, `${path}<secret>`);
  if (typeof value === 'string') return [{ path, text: value, secret: insideSecret }];
  if (Array.isArray(value)) return value.flatMap((item, i) => strings(item, insideSecret, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => strings(item, insideSecret, `${path}.${key}`));
  }
  return [];
}

/** Finds the one resource of a type and name. */
export function resource(run: ProgramRun, type: string, name: string): RegisteredResource {
  const found = run.resources.filter((r) => r.type === type && r.name === name);
  if (found.length !== 1) throw new Error(`expected one ${type} named ${name}, found ${found.length}`);
  return found[0];
}

/** Unwraps secrets, for reading values in assertions after the secrecy itself has been checked. */
export function reveal(value: unknown): any {
  if (isSecretWrapper(value)) return reveal(value.value);
  if (Array.isArray(value)) return value.map(reveal);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, reveal(item)]));
  }
  return value;
}
