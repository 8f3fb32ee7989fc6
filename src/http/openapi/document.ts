import { type ErrorCode, errorCatalogue } from '../../shared/errors.ts';
import { problemType } from '../problem.ts';
import capturedExamples from './examples.json' with { type: 'json' };

/**
 * Turns the document @fastify/swagger builds from the route schemas into one that client generators name
 * well: every schema with an `$id` becomes a component (never `def-N`), each operation's body and success
 * response get a component named after its operationId, error responses refer to shared problem responses
 * built from the error catalogue, and every operation carries the examples captured from a simulated
 * server (`npm run openapi:examples`). The route schemas stay the single source; this only rearranges.
 */

// biome-ignore lint/suspicious/noExplicitAny: a JSON document walked generically
type Json = any;

/** Module tags, in the order the document lists them. */
export const apiTags = [
  {
    name: 'auth',
    description: 'Console sign-in (with its two-factor step) and sign-out (session cookie).',
  },
  {
    name: 'account',
    description: 'The caller, its API tokens, their permissions, and two-factor sign-in.',
  },
  {
    name: 'oauth',
    description:
      'OAuth 2.0 for third-party apps: authorization code with PKCE, token refresh and revocation, the apps an account authorized.',
  },
  {
    name: 'organizations',
    description:
      'Organizations own tokens, alerts, channels, webhooks, labels, portfolio and usage: members, roles, invitations, ownership.',
  },
  { name: 'audit', description: 'The audit log of security-relevant actions (administrators).' },
  { name: 'market', description: 'Merged market view across venues and OHLCV history.' },
  { name: 'onchain', description: 'Exchange inflows and outflows seen on chain, priced in USD.' },
  {
    name: 'labels',
    description:
      "An account's own address labels (an exchange, a fund, a watched wallet), visible to it alone.",
  },
  {
    name: 'predictions',
    description: 'Intraday forecasts, the aggregated outlook and the scored track record.',
  },
  { name: 'portfolio', description: 'Holdings imported from CSV or JSON, valued at the merged price.' },
  { name: 'analytics', description: 'Dashboard figures for the caller.' },
  { name: 'alerts', description: 'Price, volume and on-chain alert rules and their deliveries.' },
  { name: 'webhooks', description: 'Signed webhook endpoints for account events.' },
];

export const apiDescription = [
  'Merged crypto market data (price, 24 h statistics, depth and slippage per symbol across venues), OHLCV',
  'history, on-chain exchange flows, a portfolio imported from CSV or JSON, alert rules with webhook',
  'delivery, and intraday price forecasts with their scored track record.',
  '',
  'Every `/api` route needs `Authorization: Bearer <token>` (an API token, `mrd_…`) or the console session',
  "cookie. Each answer carries the caller's quota in `RateLimit` / `RateLimit-Policy`; a 429 adds",
  '`Retry-After`. Errors are RFC 9457 problem documents (`application/problem+json`) with a stable `code`',
  '(components `Problem` and `ProblemCode`; `GET /problems/{code}` describes one).',
  '',
  'Push channels (WebSocket `/predictions` and `/events`) are described by the AsyncAPI document at',
  '`/asyncapi.json`. Answers computed from the simulated market source say so in their data (`venues`,',
  '`stale`), never pretending to be live exchange figures.',
].join('\n');

const statusNames: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  408: 'RequestTimeout',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  426: 'UpgradeRequired',
  429: 'TooManyRequests',
  431: 'RequestHeaderFieldsTooLarge',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
};

const problemContentType = 'application/problem+json';
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

interface Captured {
  request?: { contentType: string; value: unknown };
  responses: Record<string, unknown>;
}
const captured = capturedExamples as unknown as Record<string, Captured>;

/** The catalogue as named examples: one problem document per code. */
function problemExample(code: ErrorCode, instance = '/api/market-data'): Json {
  const { status, title } = errorCatalogue[code];
  const fromServer = captured[`problem:${code}`]?.responses[String(status)];
  return (
    fromServer ?? {
      type: problemType(code),
      title,
      status,
      detail: title,
      code,
      requestId: 'req_01JD7Q2M3X4Y5Z6A7B8C9D0E1F',
      instance,
    }
  );
}

const rateLimitHeaders = {
  RateLimit: {
    description:
      'Quota left in the current window: `"account";r=<remaining>;t=<seconds until one more request>`',
    schema: { type: 'string', examples: ['"account";r=118;t=1'] },
  },
  'RateLimit-Policy': {
    description: 'The quota: `"account";q=<requests>;w=<window seconds>`',
    schema: { type: 'string', examples: ['"account";q=120;w=60'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before the next request is admitted',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** Marks a top-level body or response schema's `$id` (@fastify/swagger drops it) so the polish can name it. */
const nameMark = 'x-schema-name';
const markName = (schema: Json) =>
  schema && typeof schema === 'object' && typeof schema.$id === 'string'
    ? { ...schema, [nameMark]: schema.$id }
    : schema;

/** @fastify/swagger's per-route `transform`: keeps the names of top-level schemas (documentation only). */
export function keepSchemaNames({ schema, url }: { schema: Json; url: string }): {
  schema: Json;
  url: string;
} {
  if (!schema) return { schema, url };
  const response = schema.response
    ? Object.fromEntries(Object.entries<Json>(schema.response).map(([k, v]) => [k, markName(v)]))
    : undefined;
  return { schema: { ...schema, body: markName(schema.body), response }, url };
}

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/** Replaces every inline schema carrying `$id` by a reference to a component of that name. */
function hoistSchemas(node: Json, schemas: Record<string, Json>): Json {
  if (Array.isArray(node)) return node.map((n) => hoistSchemas(n, schemas));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    // `examples` hold data, not schemas: an example may well contain a key called `$id`.
    out[key] = key === 'examples' || key === 'example' ? value : hoistSchemas(value, schemas);
  }
  const name = typeof out.$id === 'string' ? out.$id : out[nameMark];
  if (typeof name === 'string') {
    const { $id: _id, [nameMark]: _mark, ...schema } = out;
    const known = schemas[name];
    if (known && JSON.stringify(known) !== JSON.stringify(schema))
      throw new Error(`two different schemas are both named ${name}`);
    schemas[name] = schema;
    return ref('schemas', name);
  }
  return out;
}

/** Moves an inline object schema into components under `name`; a reference stays as it is. */
function nameSchema(schema: Json, name: string, schemas: Record<string, Json>): Json {
  if (!schema || schema.$ref) return schema;
  if (schemas[name] && JSON.stringify(schemas[name]) !== JSON.stringify(schema))
    throw new Error(`two different schemas are both named ${name}`);
  schemas[name] = schema;
  return ref('schemas', name);
}

function problemResponses(codesByStatus: Map<number, ErrorCode[]>): Json {
  const responses: Json = {};
  for (const [status, codes] of [...codesByStatus].sort(([a], [b]) => a - b)) {
    const name = statusNames[status] ?? `Status${status}`;
    const headers: Json = status === 429 ? { 'Retry-After': ref('headers', 'Retry-After') } : undefined;
    responses[name] = {
      description: `Problem document; \`code\` is one of ${codes.map((c) => `\`${c}\``).join(', ')}`,
      ...(headers ? { headers } : {}),
      content: {
        [problemContentType]: {
          schema: ref('schemas', 'Problem'),
          examples: Object.fromEntries(codes.map((c) => [c, ref('examples', `problem-${c}`)])),
        },
      },
    };
  }
  return responses;
}

/** The polished document (see the module comment). Pure: the input is not changed. */
export function polishOpenApi(input: Json): Json {
  const doc: Json = JSON.parse(JSON.stringify(input));
  const schemas: Record<string, Json> = {};
  for (const [name, schema] of Object.entries<Json>(doc.components?.schemas ?? {})) {
    const { $id: _ignored, ...rest } = schema;
    schemas[name] = hoistSchemas(rest, schemas);
  }
  doc.paths = hoistSchemas(doc.paths ?? {}, schemas);
  if (doc.webhooks) doc.webhooks = hoistSchemas(doc.webhooks, schemas);

  const codes = Object.keys(errorCatalogue) as ErrorCode[];
  const codesByStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = errorCatalogue[code];
    codesByStatus.set(status, [...(codesByStatus.get(status) ?? []), code]);
  }

  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const op of Object.values<Json>(item)) {
      if (typeof op !== 'object' || !op.responses) continue;
      const id: string | undefined = op.operationId;
      const examples = id ? captured[id] : undefined;
      const authenticated = path.startsWith('/api/');

      for (const [contentType, media] of Object.entries<Json>(op.requestBody?.content ?? {})) {
        if (id && contentType === 'application/json')
          media.schema = nameSchema(media.schema, `${pascal(id)}Request`, schemas);
        if (examples?.request?.contentType === contentType)
          media.examples = { simulated: { summary: 'A request as sent', value: examples.request.value } };
      }

      for (const [statusText, response] of Object.entries<Json>(op.responses)) {
        const status = Number(statusText);
        if (status >= 400 && codesByStatus.has(status)) {
          const media = Object.values<Json>(response.content ?? {})[0];
          // The OAuth token and revocation endpoints answer errors as RFC 6749 §5.2 requires: plain JSON.
          if (media?.schema?.$ref === '#/components/schemas/OAuthErrorResponse') {
            response.description =
              status === 429
                ? 'Too many token or revocation requests for the client, or from the address, in the last minute: an RFC 6749 §5.2 error `temporarily_unavailable`; Retry-After says when to try again'
                : 'An RFC 6749 §5.2 error: `{ error, error_description }`';
            if (status === 429) response.headers = { 'Retry-After': ref('headers', 'Retry-After') };
            continue;
          }
          if (!media || media.schema?.$ref === '#/components/schemas/Problem') {
            op.responses[statusText] = ref('responses', statusNames[status] ?? `Status${status}`);
          } else {
            // A richer problem (extra fields, e.g. per-row errors): kept, under the problem media type.
            const value = examples?.responses[statusText];
            response.content = {
              [problemContentType]: {
                ...media,
                ...(value !== undefined
                  ? { examples: { simulated: { summary: 'Captured from a simulated server', value } } }
                  : {}),
              },
            };
          }
          continue;
        }
        if (authenticated)
          response.headers = {
            ...response.headers,
            RateLimit: ref('headers', 'RateLimit'),
            'RateLimit-Policy': ref('headers', 'RateLimit-Policy'),
          };
        for (const [contentType, media] of Object.entries<Json>(response.content ?? {})) {
          if (id && contentType === 'application/json' && status < 300) {
            const suffix = status === 200 ? 'Response' : `Response${status}`;
            media.schema = nameSchema(media.schema, `${pascal(id)}${suffix}`, schemas);
          }
          const value = examples?.responses[statusText];
          // A captured JSON answer is no example of a text body (the audit log's JSON-lines export).
          const textBody = media.schema?.type === 'string' && typeof value !== 'string';
          if (value !== undefined && !textBody)
            media.examples = { simulated: { summary: 'Captured from a simulated server', value } };
        }
      }
    }
  }

  const problem = schemas.Problem;
  if (problem) {
    schemas.Problem = {
      ...problem,
      properties: { ...problem.properties, code: ref('schemas', 'ProblemCode') },
    };
    schemas.ProblemCode = {
      type: 'string',
      enum: codes,
      description: `The stable error code; \`type\` is \`/problems/{code}\`. ${codes
        .map((c) => `\`${c}\` (${errorCatalogue[c].status}): ${errorCatalogue[c].title}`)
        .join('; ')}.`,
    };
  }

  if (doc.webhooks) nameWebhooks(doc.webhooks, schemas);

  doc.info = { ...doc.info, description: apiDescription, license: apiLicense };
  // Relative: the API is served from wherever the document is (`/openapi.json` of the same server).
  doc.servers = [{ url: '/', description: 'The server this document is served from' }];
  doc.tags = apiTags;
  // Only the problem responses some operation refers to, and the examples those use: the others are errors
  // no documented operation answers with (they stay listed, with their status, in ProblemCode).
  const used = referencedNames(doc, 'responses');
  const responses = Object.fromEntries(
    Object.entries<Json>(problemResponses(codesByStatus)).filter(([name]) => used.has(name)),
  );
  const usedExamples = referencedNames(responses, 'examples');
  for (const schema of Object.values(schemas)) tidyDiscriminator(schema, schemas);
  doc.components = {
    ...doc.components,
    schemas: Object.fromEntries(
      Object.entries(reachableSchemas(doc, schemas)).sort(([a], [b]) => a.localeCompare(b)),
    ),
    responses,
    headers: rateLimitHeaders,
    examples: Object.fromEntries(
      codes
        .filter((code) => usedExamples.has(`problem-${code}`))
        .map((code) => [
          `problem-${code}`,
          { summary: errorCatalogue[code].title, value: problemExample(code) },
        ]),
    ),
  };
  return doc;
}

/**
 * A tagged union (`discriminator` over `oneOf` of named schemas) gets the mapping from tag value to schema (else
 * generators take the schema names for the tag values). Its tag is checked at the top too, for the server's
 * one clear error on a missing or unknown `type`; in the document the branches already say it, and a top-level
 * `properties` would leave the other fields "unevaluated" to strict example checkers.
 */
function tidyDiscriminator(schema: Json, schemas: Record<string, Json>): void {
  const tag = schema?.discriminator?.propertyName;
  if (!tag || !Array.isArray(schema.oneOf) || !schema.oneOf.every((b: Json) => b.$ref)) return;
  const mapping: Record<string, string> = {};
  for (const branch of schema.oneOf as Array<{ $ref: string }>) {
    const property = schemas[branch.$ref.split('/').pop()!]?.properties?.[tag];
    const values: unknown[] = property?.const !== undefined ? [property.const] : (property?.enum ?? []);
    for (const value of values) mapping[String(value)] = branch.$ref;
  }
  schema.discriminator = { ...schema.discriminator, mapping };
  if (schema.properties && Object.keys(schema.properties).length === 1 && schema.properties[tag])
    delete schema.properties;
}

/** The schemas the paths, webhooks and other components refer to, directly or through one another. */
function reachableSchemas(doc: Json, schemas: Record<string, Json>): Record<string, Json> {
  const keep = new Set<string>();
  let frontier = referencedNames({ paths: doc.paths, webhooks: doc.webhooks }, 'schemas');
  // Problem responses are built after this point; their schema is always kept.
  frontier.add('Problem');
  while (frontier.size) {
    const next = new Set<string>();
    for (const name of frontier) {
      if (keep.has(name) || !schemas[name]) continue;
      keep.add(name);
      for (const inner of referencedNames(schemas[name], 'schemas')) next.add(inner);
    }
    frontier = next;
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => keep.has(name)));
}

/** The package is private and ships no licence file: the document says so rather than invent one. */
const apiLicense = { name: 'Proprietary: no licence granted', identifier: 'LicenseRef-Proprietary' };

/** The names of `#/components/<kind>/…` that `node` refers to. */
function referencedNames(node: Json, kind: string): Set<string> {
  const prefix = `"#/components/${kind}/`;
  const names = new Set<string>();
  for (const match of JSON.stringify(node).matchAll(
    new RegExp(`${prefix.replace(/[/#]/g, '\\$&')}([^"]+)"`, 'g'),
  ))
    names.add(match[1]!);
  return names;
}

/**
 * Each webhook gets an operationId (`alertTriggeredWebhook`) and, where the event has its own schema
 * (`AlertTriggeredEvent` for `alert.triggered`), that schema as its body instead of the generic event.
 */
function nameWebhooks(webhooks: Record<string, Json>, schemas: Record<string, Json>): void {
  for (const [type, item] of Object.entries(webhooks)) {
    const words = type.split(/[._]/);
    const camel = words.map((w, i) => (i === 0 ? w : pascal(w))).join('');
    const eventSchema = `${words.map(pascal).join('')}Event`;
    for (const op of Object.values<Json>(item)) {
      op.operationId ??= `${camel}Webhook`;
      const media = op.requestBody?.content?.['application/json'];
      if (media && schemas[eventSchema]) media.schema = ref('schemas', eventSchema);
    }
  }
}
