// A bare node:http server answering every request with the given bytes: the baseline for API benchmarks.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]!);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}/` })}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
