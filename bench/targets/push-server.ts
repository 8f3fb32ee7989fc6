// The real Meridian API (embedded mode, memory bus) serving WebSocket /predictions; every second it
// publishes a refresh on the bus exactly as the predictions worker does in the same process.
import { topics } from '../../src/shared/bus.ts';
import { pushHubOf } from '../../src/http/push/predictions/route.ts';
import { benchApp } from './bench-app.ts';
import { answerCpu, recordFanout, refreshDatapoints } from './push-payload.ts';

const { app, container, token } = await benchApp(
  { MERIDIAN_WS_CONNECTIONS_PRO: '100000' },
  { role: 'viewer' },
);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
const hub = pushHubOf(app.server)!;
// Env BENCH_PUSH_SLICE (sockets per event-loop turn, 0 = one turn) and BENCH_PUSH_PREFRAMED=0 (ws.send per
// socket) select the fan-out variant; unset = the hub's defaults.
if (process.env.BENCH_PUSH_SLICE) hub.tuneFanout({ fanoutSliceSize: Number(process.env.BENCH_PUSH_SLICE) });
if (process.env.BENCH_PUSH_PREFRAMED === '0') hub.tuneFanout({ preFramed: false });
// The fan-out may continue over several event-loop turns: timed from publish to the last socket written.
hub.observeFanout((ms) => recordFanout(ms));
setInterval(
  () => {
    void container.bus.publish(topics.predictionsRefreshed, refreshDatapoints(new Date().toISOString()));
  },
  Number(process.env.PUSH_REFRESH_MS ?? 1000),
);
answerCpu(() => ({
  preFramedPct: hub.stats.sent ? Math.round((hub.stats.preFramed / hub.stats.sent) * 1000) / 10 : 0,
}));
process.send!({
  ready: true,
  url: `ws://127.0.0.1:${port}/predictions`,
  headers: { authorization: `Bearer ${token}` },
});
