/**
 * How an MCP tool reaches the API: one REST request, answered by the REST route itself. There is no second
 * request pipeline — authentication, permissions, rate limits, validation and provenance are the route's.
 */
export interface RestRequest {
  method: 'GET' | 'POST' | 'PATCH';
  /** Path with its parameters filled in, e.g. `/api/alerts/alr_1`. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

export interface RestAnswer {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Parsed JSON (a problem document on 4xx/5xx), or the text when it is not JSON. */
  body: unknown;
}

export type RouteCaller = (request: RestRequest) => Promise<RestAnswer>;

export function urlOf(request: RestRequest): string {
  const query = new URLSearchParams(request.query ?? {}).toString();
  return query ? `${request.path}?${query}` : request.path;
}

export function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '' || !/json/.test(contentType ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function flatHeaders(
  headers: Record<string, string | string[] | number | undefined>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined)
      flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  return flat;
}

/** The subset of Fastify's `inject` the in-process caller uses. */
export interface Injector {
  inject(options: {
    method: RestRequest['method'];
    url: string;
    headers: Record<string, string>;
    remoteAddress?: string;
    payload?: string;
  }): PromiseLike<{
    statusCode: number;
    headers: Record<string, string | string[] | number | undefined>;
    body: string;
  }>;
}

/**
 * Calls the routes of this very process (`/mcp`): the caller's own `Authorization`, `Host` and address go
 * with every request, so the route sees the same client the MCP request came from.
 */
export function injectCaller(
  app: Injector,
  caller: { authorization: string; host?: string; remoteAddress?: string },
): RouteCaller {
  return async (request) => {
    const headers: Record<string, string> = {
      authorization: caller.authorization,
      'user-agent': 'meridian-mcp',
      accept: 'application/json',
    };
    if (caller.host) headers.host = caller.host;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const res = await app.inject({
      method: request.method,
      url: urlOf(request),
      headers,
      remoteAddress: caller.remoteAddress,
      payload: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    const flat = flatHeaders(res.headers);
    return { status: res.statusCode, headers: flat, body: parseBody(res.body, flat['content-type']) };
  };
}

/** Calls a running Meridian server over HTTP (`meridian mcp` over stdio for a local agent). */
export function httpCaller(baseUrl: string, token: string | undefined): RouteCaller {
  const base = baseUrl.replace(/\/+$/, '');
  return async (request) => {
    const headers: Record<string, string> = { 'user-agent': 'meridian-mcp', accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${urlOf(request)}`, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    const flat: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      flat[name] = value;
    });
    return { status: res.status, headers: flat, body: parseBody(await res.text(), flat['content-type']) };
  };
}
