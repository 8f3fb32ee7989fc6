// A bare `ws` server: every second it serializes the refresh once and sends the same bytes to every client.
// The baseline for the push channel benchmark (no auth, no subscriptions, no buffer checks).
import { WebSocketServer } from 'ws';
import { answerCpu, refreshDatapoints, timeFanout } from './push-payload.ts';

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload: 4096 });
await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
const { port } = wss.address() as { port: number };
setInterval(
  () => {
    const datapoints = refreshDatapoints(new Date().toISOString());
    timeFanout(() => {
      const frame = Buffer.from(JSON.stringify({ data: datapoints }));
      for (const ws of wss.clients) ws.send(frame, { binary: false });
    });
  },
  Number(process.env.PUSH_REFRESH_MS ?? 1000),
);
answerCpu();
process.send!({ ready: true, url: `ws://127.0.0.1:${port}/`, headers: {} });
