import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';

const bin = join(process.cwd(), 'bin/meridian.mjs');

/**
 * `meridian mcp` as a local agent runs it: a child process speaking MCP on stdio (the SDK's StdioClientTransport),
 * calling a Meridian server over HTTP with the agent's token.
 */
describe('meridian mcp over stdio', () => {
  let t: TestApp;
  let base: string;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    member = await t.user('member');
  });
  afterAll(() => t.close());

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'meridian-stdio-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, 'mcp', '--url', base],
        env: { ...(process.env as Record<string, string>), MERIDIAN_TOKEN: token },
        stderr: 'inherit',
      }),
    );
    return client;
  }

  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

  it('lists the tools and calls one, with the provenance the route gave', async () => {
    const client = await connect(member.token);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('get_forecast');
      const outlook = (await client.callTool({ name: 'get_outlook', arguments: {} })) as CallToolResult;
      expect(outlook.isError, text(outlook)).toBeFalsy();
      expect(
        (outlook.structuredContent as { provenance: { source: string } }).provenance.source,
      ).toBeTruthy();
      expect(text(outlook)).toMatch(/outlook: (bullish|bearish|neutral)/);
      const card = await client.readResource({ uri: 'meridian://model-card' });
      expect((card.contents[0] as { text: string }).text).toMatch(/^# Forecasting/);
    } finally {
      await client.close();
    }
  });

  it('refuses what the token may not do, names bad arguments, and reports the rate limit', async () => {
    const viewer = await t.user('viewer');
    await t.container.accounts.setPlan(viewer.email, 'pro', 2);
    const client = await connect(viewer.token);
    try {
      const refused = (await client.callTool({
        name: 'pause_alert_rule',
        arguments: { id: 'alr_nope' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^403 forbidden/);
      const bad = (await client.callTool({
        name: 'list_alert_rules',
        arguments: { state: 'sleeping' },
      })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/argument state: /);
      // The refused call was not charged (as in REST, a 403 comes before the charge); the invalid one was.
      const allowed = (await client.callTool({ name: 'get_outlook', arguments: {} })) as CallToolResult;
      expect(allowed.isError).toBeFalsy();
      const limited = (await client.callTool({ name: 'get_outlook', arguments: {} })) as CallToolResult;
      expect(limited.isError).toBe(true);
      expect(text(limited)).toMatch(/^429 rate_limited/);
    } finally {
      await client.close();
    }
  });

  it('will not start without a token', () => {
    const env = { ...process.env };
    delete env.MERIDIAN_TOKEN;
    const run = spawnSync(process.execPath, [bin, 'mcp'], { env, encoding: 'utf8', input: '' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('MERIDIAN_TOKEN');
  });
});
