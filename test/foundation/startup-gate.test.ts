import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config/env.ts';
import { type StartupGate, startupGate } from '../../src/http/startup-gate.ts';

const gates: StartupGate[] = [];
afterEach(async () => {
  await Promise.all(gates.splice(0).map((g) => g.close()));
});

async function listeningGate() {
  const gate = startupGate(loadConfig({ MERIDIAN_ALLOWED_HOSTS: '' }));
  gates.push(gate);
  await new Promise<void>((resolve) => gate.server.listen(0, '127.0.0.1', resolve));
  const port = (gate.server.address() as { port: number }).port;
  return { gate, base: `http://127.0.0.1:${port}`, port };
}

/** The raw answer to `request` written on a fresh connection, as the server wrote it. */
function rawAnswer(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('the API port while the service starts', () => {
  it('is live, unready naming the phase, and answers every other request 503 problem+json with Retry-After', async () => {
    const { gate, base } = await listeningGate();
    gate.phase('applying migrations');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'unready',
      components: { startup: { status: 'down', reason: 'starting: applying migrations' } },
    });
    const answer = await fetch(`${base}/api/market-data?symbols=BTCUSDT`, {
      headers: { 'x-request-id': 'probe-1' },
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(answer.headers.get('x-request-id')).toBe('probe-1');
    expect(await answer.json()).toMatchObject({
      code: 'unavailable',
      instance: '/api/market-data',
      requestId: 'probe-1',
      detail: 'the service is starting (applying migrations); retry shortly',
    });
  });

  it('refuses a WebSocket upgrade with a problem document until it opens', async () => {
    const { gate, port } = await listeningGate();
    gate.phase('starting market');
    const answer = await rawAnswer(
      port,
      'GET /market HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toContain('"code":"unavailable"');
    expect(answer).toContain('starting market');
  });

  it('answers a request that is not HTTP with the problem document, before and after it opens', async () => {
    const { gate, port } = await listeningGate();
    expect(await rawAnswer(port, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 400 [\s\S]*"code":"bad_request"/,
    );
    gate.inner(() => {});
    gate.open();
    expect(await rawAnswer(port, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 400 [\s\S]*"code":"bad_request"/,
    );
  });

  it('once open, hands every request and upgrade to the API server and no longer answers for it', async () => {
    const { gate, base } = await listeningGate();
    const inner = gate.inner((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`api saw ${req.url}`);
    });
    const upgrades: string[] = [];
    inner.on('upgrade', (req, socket) => {
      upgrades.push(req.url ?? '');
      socket.destroy();
    });
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    gate.open();
    const readyz = await fetch(`${base}/readyz`);
    expect(await readyz.text()).toBe('api saw /readyz');
    expect(await (await fetch(`${base}/api/market-data`)).text()).toBe('api saw /api/market-data');
    const ws = new WebSocket(`${base.replace('http', 'ws')}/market`);
    await new Promise((resolve) => ws.once('error', resolve));
    expect(upgrades).toEqual(['/market']);
  });
});
