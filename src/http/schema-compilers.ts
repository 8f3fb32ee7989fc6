import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;
type Serializer = (doc: unknown) => string;

/**
 * Fastify's own compilers (Ajv for input, fast-json-stringify for responses), shared by every server this
 * process builds. Ajv keeps one compiled validator a schema object; fast-json-stringify compiles every
 * (route, status) afresh, so the problem document was compiled once per route and status. Here a schema
 * object is compiled once for the process: at start, and for each of the hundreds of servers a test run builds.
 */
const validators = AjvCompiler();
const serializers = SerializerSelector();

/** Compiled serializers by the options and shared schemas they were built with, then by schema object. */
const compiled = new Map<string, WeakMap<object, Serializer>>();

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = serializers(externalSchemas, options);
  const key = JSON.stringify([externalSchemas, options]);
  const cache = compiled.get(key) ?? new WeakMap<object, Serializer>();
  compiled.set(key, cache);
  return (route) => {
    let serialize = cache.get(route.schema as object);
    if (!serialize) {
      serialize = compile(route);
      cache.set(route.schema as object, serialize);
    }
    return serialize;
  };
};

export const schemaCompilers: CompilersFactory = { buildValidator: validators, buildSerializer };
