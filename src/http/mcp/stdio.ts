import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { httpCaller } from './caller.ts';
import { createMcpServer } from './server.ts';

export interface StdioOptions {
  /** The Meridian server the tools call (MERIDIAN_URL). */
  baseUrl: string;
  /** The API token sent with every call (MERIDIAN_TOKEN); the server decides what it may do. */
  token: string;
}

/**
 * `meridian mcp`: the MCP server over stdin/stdout for a local agent. Each tool is a REST request to a running
 * Meridian server with the agent's token, so permissions, rate limits and validation are the server's.
 * Resolves when the agent closes the stream.
 */
export async function runStdioMcp(options: StdioOptions): Promise<void> {
  const server = createMcpServer(httpCaller(options.baseUrl, options.token));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  process.stdin.once('end', () => void server.close());
  await closed;
}
