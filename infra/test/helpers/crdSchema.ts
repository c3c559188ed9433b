/**
 * Holds a custom resource to its CustomResourceDefinition's schema, as the API server would, and
 * a little stricter: a field the schema does not know is an error (the API server would drop it
 * with only a warning, and a misspelt `dataDurabilty` would silently mean the default). CEL rules
 * (x-kubernetes-validations) are not evaluated here.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parse } from 'yaml';

type Schema = Record<string, any>;

/** Every object schema that lists its properties and keeps no unknown fields gets additionalProperties: false. */
function closed(schema: Schema): Schema {
  if (Array.isArray(schema)) return schema.map(closed) as unknown as Schema;
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Schema).map(([name, property]) => [name, closed(property as Schema)]))
        : closed(value as Schema),
    ]),
  );
  if (out.properties && out.additionalProperties === undefined && !out['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  return out;
}

export function crdValidator(file: URL, version: string): (resource: unknown) => string[] {
  const crd = parse(readFileSync(file, 'utf8'));
  const served = crd.spec.versions.find((v: { name: string }) => v.name === version);
  if (!served) throw new Error(`${file.pathname} has no version ${version}`);
  // The CRD's own keywords (x-kubernetes-*) and formats (int32, quantity) are not JSON Schema's.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const validate = ajv.compile(closed(served.schema.openAPIV3Schema));
  return (resource) =>
    validate(resource) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
}

export function jsonSchemaValidator(file: URL): (value: unknown) => string[] {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const validate = ajv.compile(JSON.parse(readFileSync(file, 'utf8')));
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`));
}
