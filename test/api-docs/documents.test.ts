import { readFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue } from '../../src/shared/errors.ts';
import { asyncApiPath, generatedApiDocuments, openApiPath } from '../../scripts/openapi-docs.ts';

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are walked as plain JSON
type Json = any;

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Every operation of the document with its method and path. */
function operations(doc: Json): { method: string; path: string; op: Json }[] {
  return Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item)
      .filter(([method]) => methods.includes(method))
      .map(([method, op]) => ({ method, path, op })),
  );
}

/** Ajv over the document's component schemas: `#/components/schemas/X` resolves as `doc#/$defs/X`. */
function validatorFor(doc: Json) {
  const rewrite = (value: unknown) =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"doc#/$defs/'));
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', $defs: rewrite(doc.components.schemas) });
  // Many examples share a schema (every problem example the problem document): each is compiled once.
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema: Json, value: unknown) => {
    const key = JSON.stringify(schema);
    const validate = compiled.get(key) ?? ajv.compile(rewrite(schema));
    compiled.set(key, validate);
    return validate(value) ? [] : (validate.errors ?? []);
  };
}

/** A response or example object, following one `$ref` into components. */
function deref(doc: Json, value: Json): Json {
  if (!value?.$ref) return value;
  const [, , kind, name] = value.$ref.split('/');
  return doc.components[kind][name];
}

describe('OpenAPI and AsyncAPI documents', () => {
  let generated: { openapi: string; asyncapi: string };
  let doc: Json;

  beforeAll(async () => {
    generated = await generatedApiDocuments();
    doc = JSON.parse(generated.openapi);
  });

  it('the committed docs/openapi.json and docs/asyncapi.json equal the generated ones (run `npm run openapi`)', () => {
    expect(readFileSync(openApiPath, 'utf8')).toBe(generated.openapi);
    expect(readFileSync(asyncApiPath, 'utf8')).toBe(generated.asyncapi);
  });

  it('every operation has a unique camelCase operationId and a declared module tag', () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(30);
    const ids = ops.map(({ op }) => op.operationId);
    for (const { method, path, op } of ops) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.tags?.length, `${method} ${path}`).toBe(1);
      expect(doc.tags.map((t: Json) => t.name)).toContain(op.tags[0]);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names every schema: no def-N and no inline schema with an $id left', () => {
    const text = generated.openapi;
    expect(text).not.toMatch(/def-\d/);
    expect(text).not.toContain('x-schema-name');
    expect(text).not.toMatch(/"\$id"/);
    for (const name of Object.keys(doc.components.schemas)) expect(name).toMatch(/^[A-Z][A-Za-z0-9]+$/);
    for (const name of ['Problem', 'ProblemCode', 'MarketData', 'Candle', 'PredictionDatapoint', 'AlertRule'])
      expect(doc.components.schemas).toHaveProperty(name);
  });

  it('the problem catalogue is a component and every error response refers to it', () => {
    expect(doc.components.schemas.ProblemCode.enum).toEqual(Object.keys(errorCatalogue));
    // Each code an error response names has its example; codes no documented operation answers with (405,
    // 408, 421, 426, 431, 500) are listed in ProblemCode only (unused components are lint warnings).
    for (const response of Object.values<Json>(doc.components.responses))
      for (const example of Object.values<Json>(response.content['application/problem+json'].examples))
        expect(doc.components.examples).toHaveProperty(example.$ref.split('/').pop());
    expect(Object.keys(doc.components.examples).length).toBeGreaterThanOrEqual(20);
    for (const { method, path, op } of operations(doc)) {
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        if (Number(status) < 400) continue;
        // RFC 6749 §5.2 mandates its own JSON error format at the OAuth token and revocation endpoints.
        if (path.startsWith('/oauth/')) {
          expect(deref(doc, response).content['application/json'].schema.$ref).toMatch(/OAuthErrorResponse$/);
          continue;
        }
        const media = deref(doc, response).content['application/problem+json'];
        expect(media, `${method} ${path} ${status}`).toBeDefined();
        expect(JSON.stringify(media.schema)).toMatch(/Problem|requestId/);
      }
    }
  });

  it('every operation has an example, and every example validates against its schema', () => {
    const validate = validatorFor(doc);
    let checked = 0;
    for (const { method, path, op } of operations(doc)) {
      let count = 0;
      const media: { where: string; m: Json }[] = [];
      for (const [type, m] of Object.entries<Json>(op.requestBody?.content ?? {}))
        media.push({ where: `request ${type}`, m });
      for (const [status, response] of Object.entries<Json>(op.responses))
        for (const [type, m] of Object.entries<Json>(deref(doc, response).content ?? {}))
          media.push({ where: `${status} ${type}`, m });
      for (const { where, m } of media) {
        for (const example of Object.values<Json>(m.examples ?? {})) {
          const value = deref(doc, example).value;
          const errors =
            m.schema.type === 'string' && typeof value === 'string' ? [] : validate(m.schema, value);
          expect(errors, `${method} ${path} ${where}`).toEqual([]);
          count++;
          checked++;
        }
      }
      // Sign-out answers 204 with no body and has no request body: only its refusals (problems) have examples.
      if (op.operationId !== 'logout') expect(count, `${method} ${path} has no example`).toBeGreaterThan(0);
      else expect(media.filter(({ where }) => !where.endsWith('application/problem+json'))).toEqual([]);
      // A success answer with a JSON body shows a captured one.
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        const json = response.content?.['application/json'];
        if (Number(status) < 300 && json) expect(json.examples, `${method} ${path} ${status}`).toBeDefined();
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('describes only routes that exist and says where the push channels are described', () => {
    expect(doc.info.description).toContain('/asyncapi.json');
    for (const mentioned of doc.info.description.match(/`(\/[a-z/{}.-]+)`/g) ?? []) {
      const path = mentioned.slice(1, -1);
      if (['/api', '/predictions', '/events', '/market', '/asyncapi.json'].includes(path)) continue;
      expect(
        Object.keys(doc.paths).some((p) => p.startsWith(path.replace('{code}', ''))) ||
          path.startsWith('/problems'),
      ).toBe(true);
    }
  });

  it('the AsyncAPI document is valid AsyncAPI 3 (@asyncapi/parser) and describes /predictions, /events and /market', async () => {
    const asyncapi = JSON.parse(generated.asyncapi);
    const { document, diagnostics } = await new Parser().parse(asyncapi);
    expect(diagnostics.filter((d) => d.severity === 0)).toEqual([]);
    expect(document).toBeDefined();
    expect(
      document!
        .channels()
        .all()
        .map((c) => c.address()),
    ).toEqual(['/predictions', '/events', '/market']);
    expect(asyncapi.components.schemas.PredictionDatapoint).toEqual(
      JSON.parse(JSON.stringify(doc.components.schemas.PredictionDatapoint)),
    );
  });
});
