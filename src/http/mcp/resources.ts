import { readFile } from 'node:fs/promises';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { RouteCaller } from './caller.ts';

/** The model card: the forecasting method page, shipped with the server (src/ and dist/ sit two levels down). */
const MODEL_CARD = new URL('../../../docs/forecasting.md', import.meta.url);

export const SYMBOLS_URI = 'meridian://symbols';
export const MODEL_CARD_URI = 'meridian://model-card';

export const resources = [
  {
    uri: SYMBOLS_URI,
    name: 'symbols',
    title: 'Supported symbols',
    description: 'Every symbol this server serves, canonical spelling (BASEQUOTE), in configured order',
    mimeType: 'application/json',
  },
  {
    uri: MODEL_CARD_URI,
    name: 'model-card',
    title: 'Forecasting model card',
    description:
      'How the forecasts are made, what their intervals and confidence promise, how they are scored',
    mimeType: 'text/markdown',
  },
] as const;

/** Symbols per market-data page, the largest the route serves; pages are followed up to MAX_PAGES. */
const PAGE = 500;
const MAX_PAGES = 20;

/** The supported symbols, read through GET /api/market-data like any client would (same auth and limits). */
async function supportedSymbols(call: RouteCaller): Promise<string[]> {
  const symbols: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query: Record<string, string> = { limit: String(PAGE) };
    if (cursor) query.cursor = cursor;
    const answer = await call({ method: 'GET', path: '/api/market-data', query });
    if (answer.status >= 400) {
      const problem = answer.body as { detail?: string };
      throw new McpError(
        ErrorCode.InternalError,
        `${answer.status}: ${problem?.detail ?? 'market data refused'}`,
      );
    }
    const body = answer.body as { data: Array<{ symbol: string }>; nextCursor: string | null };
    symbols.push(...body.data.map((item) => item.symbol));
    if (!body.nextCursor) break;
    cursor = body.nextCursor;
  }
  return symbols;
}

export async function readResource(uri: string, call: RouteCaller) {
  if (uri === SYMBOLS_URI)
    return {
      uri,
      mimeType: 'application/json',
      text: JSON.stringify({ symbols: await supportedSymbols(call) }),
    };
  if (uri === MODEL_CARD_URI)
    return { uri, mimeType: 'text/markdown', text: await readFile(MODEL_CARD, 'utf8') };
  throw new McpError(
    ErrorCode.InvalidParams,
    `unknown resource ${uri}; resources: ${resources.map((r) => r.uri).join(', ')}`,
  );
}
