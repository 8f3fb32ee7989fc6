import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { RestAnswer, RouteCaller } from './caller.ts';
import { readResource, resources } from './resources.ts';
import { tools, unknownArguments } from './tools.ts';

export const MCP_SERVER_NAME = 'meridian';
/** The version the MCP server reports: the API's (info.version of the OpenAPI document). */
export const MCP_SERVER_VERSION = '1.0.0';

/** Where an answer's data comes from, as the REST route said it (`Meridian-*` headers). */
export interface ToolProvenance {
  source: string | null;
  asOf: string | null;
  stale: boolean;
  backfilling: boolean;
  /** `Meridian-Normalized`: parameters the route changed on the way in (btc → BTCUSDT). */
  normalized: string | null;
}

export function provenanceOf(headers: Record<string, string>): ToolProvenance {
  return {
    source: headers['meridian-source'] ?? null,
    asOf: headers['meridian-as-of'] ?? null,
    stale: headers['meridian-stale'] === 'true',
    backfilling: headers['meridian-backfilling'] === 'true',
    normalized: headers['meridian-normalized'] ?? null,
  };
}

function provenanceLine(p: ToolProvenance): string {
  if (p.source === null) return '';
  const parts = [`source: ${p.source}`, `as of: ${p.asOf ?? 'no data yet'}`, p.stale ? 'STALE' : 'fresh'];
  if (p.backfilling) parts.push('model still backfilling');
  if (p.normalized) parts.push(`normalized: ${p.normalized}`);
  return `\n(${parts.join(' · ')})`;
}

/** `/query/horizon` → `horizon`, `/body/condition/above` → `condition.above`: the tool's argument names. */
export function argumentOf(pointer: string): string {
  const parts = pointer.split('/').filter(Boolean);
  const [where, ...rest] = parts;
  if (where === 'query' || where === 'body' || where === 'params') return rest.join('.') || '(arguments)';
  return parts.join('.') || '(arguments)';
}

/** A REST problem as a tool error: the status, the problem's words, and each wrong argument by name. */
function toolError(answer: RestAnswer): CallToolResult {
  const problem = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as {
    title?: string;
    detail?: string;
    code?: string;
    errors?: Array<{ pointer: string; message: string }>;
  };
  const lines = [
    `${answer.status} ${problem.code ?? 'error'}: ${problem.detail ?? problem.title ?? String(answer.body)}`,
  ];
  for (const e of problem.errors ?? []) lines.push(`argument ${argumentOf(e.pointer)}: ${e.message}`);
  if (answer.headers['retry-after']) lines.push(`retry after ${answer.headers['retry-after']} s`);
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { status: answer.status, problem: answer.body },
  };
}

function argumentError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * The MCP server over a RouteCaller: tools and resources are REST requests, answered by the REST routes. The
 * same server serves `/mcp` (in-process calls with the caller's token) and `meridian mcp` (HTTP to a server).
 */
export function createMcpServer(call: RouteCaller): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Meridian: crypto market data, on-chain exchange flows, price forecasts with calibrated intervals, ' +
        'alerts and portfolio. Every answer states its source and whether it is stale or simulated.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object' },
      annotations: { title: t.title, readOnlyHint: t.readOnly, openWorldHint: false },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool)
      return argumentError(
        `unknown tool ${request.params.name}; tools: ${tools.map((t) => t.name).join(', ')}`,
      );
    const args = request.params.arguments ?? {};
    const unknown = unknownArguments(tool, args);
    if (unknown.length) {
      const allowed = Object.keys((tool.inputSchema.properties ?? {}) as object);
      return argumentError(
        unknown.map((name) => `argument ${name}: unknown argument`).join('\n') +
          `\n${tool.name} takes: ${allowed.join(', ') || 'no arguments'}`,
      );
    }
    const answer = await call(tool.request(args));
    if (answer.status >= 400) return toolError(answer);
    const provenance = provenanceOf(answer.headers);
    return {
      content: [{ type: 'text', text: tool.summarize(answer.body) + provenanceLine(provenance) }],
      structuredContent: { result: answer.body, provenance },
    };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [...resources] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({
    contents: [await readResource(request.params.uri, call)],
  }));

  return server;
}
