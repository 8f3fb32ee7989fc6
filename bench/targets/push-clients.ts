// One client process of the push benchmark: opens `count` sockets, then records, for every message, the
// delay from the refresh's `generatedAt` to its arrival (found by byte search, no JSON parse, no UTF-8
// validation, so the clients cost as little as possible and the same for both servers). Reports its own
// CPU time over the measured window: the clients share the machine's cores with the server.
//
// Two client implementations, env BENCH_PUSH_CLIENT:
// - `raw` (default): a minimal RFC 6455 client on a bare TCP socket — HTTP upgrade, unmasked server frames
//   parsed by header, pings answered with pongs, close frames echoed; no stream machinery per message.
// - `ws`: the `ws` library's client (about twice the CPU per message here).
import { randomBytes } from 'node:crypto';
import { type Socket, connect } from 'node:net';
import WebSocket from 'ws';

const clientKind = process.env.BENCH_PUSH_CLIENT ?? 'raw';

interface Start {
  url: string;
  headers: Record<string, string>;
  count: number;
}

const marker = Buffer.from('"generatedAt":"');
let measuring = false;
const latencies: number[] = [];
let received = 0;
const sockets: { terminate(): void }[] = [];
let closedEarly = 0;
let cpuAtStart = process.cpuUsage();
let wallAtStart = performance.now();

function onMessage(data: Buffer, from = 0, to = data.length, at = Date.now()) {
  if (!measuring) return;
  const i = data.indexOf(marker, from);
  if (i < 0 || i + marker.length + 24 > to) return;
  const stamp = data.toString('latin1', i + marker.length, i + marker.length + 24);
  latencies.push(at - Date.parse(stamp));
  received++;
}

/** Opens one raw WebSocket: resolves after the 101, then parses frames as they arrive. */
function openRaw(start: Start): Promise<void> {
  const url = new URL(start.url);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: url.hostname, port: Number(url.port) });
    socket.setNoDelay(true);
    let upgraded = false;
    let head: Buffer = Buffer.alloc(0);
    let pending: Buffer | null = null;
    socket.once('connect', () => {
      const lines = [
        `GET ${url.pathname}${url.search} HTTP/1.1`,
        `Host: ${url.host}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        ...Object.entries(start.headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      if (!upgraded) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const status = head.toString('latin1', 0, head.indexOf('\r\n'));
        if (!status.startsWith('HTTP/1.1 101')) {
          socket.destroy();
          reject(new Error(status));
          return;
        }
        upgraded = true;
        sockets.push({ terminate: () => socket.destroy() });
        resolve();
        chunk = head.subarray(end + 4);
        if (!chunk.length) return;
      }
      pending = frames(socket, pending ? Buffer.concat([pending, chunk]) : chunk);
    });
    socket.once('error', (e) => {
      if (!upgraded) reject(e);
    });
    socket.once('close', () => {
      if (upgraded && !stopping) closedEarly++;
    });
  });
}

/** Handles every complete (unmasked, unfragmented) server frame in `buf`; returns the incomplete rest. */
function frames(socket: Socket, buf: Buffer): Buffer | null {
  const at = Date.now();
  let p = 0;
  while (buf.length - p >= 2) {
    const opcode = buf[p]! & 0x0f;
    let length = buf[p + 1]! & 0x7f;
    let body = p + 2;
    if (length === 126) {
      if (buf.length - p < 4) break;
      length = buf.readUInt16BE(p + 2);
      body = p + 4;
    } else if (length === 127) {
      if (buf.length - p < 10) break;
      length = buf.readUIntBE(p + 4, 6);
      body = p + 10;
    }
    if (buf.length - body < length) break;
    if (opcode === 0x1) onMessage(buf, body, body + length, at);
    else if (opcode === 0x9) socket.write(clientFrame(0xa, buf.subarray(body, body + length)));
    else if (opcode === 0x8) socket.end(clientFrame(0x8, buf.subarray(body, body + Math.min(length, 2))));
    p = body + length;
  }
  return p === buf.length ? null : buf.subarray(p);
}

/** A client → server control frame (≤ 125 bytes), masked with an all-zero key (payload unchanged). */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const frame = Buffer.alloc(6 + payload.length);
  frame[0] = 0x80 | opcode;
  frame[1] = 0x80 | payload.length;
  payload.copy(frame, 6);
  return frame;
}

function openWs(start: Start): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const ws = new WebSocket(start.url, {
      headers: start.headers,
      perMessageDeflate: false,
      skipUTF8Validation: true,
    });
    ws.once('open', () => {
      sockets.push(ws);
      resolve();
    });
    ws.once('error', reject);
    ws.on('message', (data: Buffer) => onMessage(data));
    ws.once('close', () => {
      if (!stopping) closedEarly++;
    });
  });
}

async function open(start: Start) {
  let next = 0;
  const one = clientKind === 'ws' ? openWs : openRaw;
  const worker = async () => {
    while (next < start.count) {
      next++;
      await one(start);
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
}

let stopping = false;
process.on('message', async (m: { cmd: string } & Partial<Start>) => {
  if (m.cmd === 'open') {
    try {
      await open(m as Start);
      process.send!({ opened: sockets.length });
    } catch (error) {
      process.send!({ error: String((error as Error).message ?? error) });
    }
  } else if (m.cmd === 'measure') {
    latencies.length = 0;
    received = 0;
    measuring = true;
    cpuAtStart = process.cpuUsage();
    wallAtStart = performance.now();
  } else if (m.cmd === 'report') {
    measuring = false;
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const cpuPct = (cpuMs / (performance.now() - wallAtStart)) * 100;
    process.send!({ latencies, received, closedEarly, cpuPct, cpuMs });
  } else if (m.cmd === 'close') {
    stopping = true;
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
