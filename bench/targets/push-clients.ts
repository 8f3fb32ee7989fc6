// One client process of the push benchmark: opens `count` sockets, then records, for every message, the
// delay from the refresh's `generatedAt` to its arrival (found by byte search, no JSON parse, no UTF-8
// validation, so the clients cost as little as possible and the same for both servers). Reports its own
// CPU time over the measured window: the clients share the machine's cores with the server.
import WebSocket from 'ws';

interface Start {
  url: string;
  headers: Record<string, string>;
  count: number;
}

const marker = Buffer.from('"generatedAt":"');
let measuring = false;
const latencies: number[] = [];
let received = 0;
const sockets: WebSocket[] = [];
let closedEarly = 0;
let cpuAtStart = process.cpuUsage();
let wallAtStart = performance.now();

function onMessage(data: Buffer) {
  if (!measuring) return;
  const at = Date.now();
  const i = data.indexOf(marker);
  if (i < 0) return;
  const stamp = data.toString('latin1', i + marker.length, i + marker.length + 24);
  latencies.push(at - Date.parse(stamp));
  received++;
}

async function open(start: Start) {
  let next = 0;
  const worker = async () => {
    while (next < start.count) {
      next++;
      await new Promise<void>((resolve, reject) => {
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
        ws.on('message', onMessage);
        ws.once('close', () => {
          if (!stopping) closedEarly++;
        });
      });
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
    const cpuPct = ((cpu.user + cpu.system) / 1000 / (performance.now() - wallAtStart)) * 100;
    process.send!({ latencies, received, closedEarly, cpuPct });
  } else if (m.cmd === 'close') {
    stopping = true;
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
