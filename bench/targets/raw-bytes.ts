// A bare node:http server answering every request with the given bytes: the baseline for API benchmarks.
// argv: the body file and, optionally, a JSON file of response headers to send with it (see
// `captureResponse` in bench/lib.ts), so that it returns the same response bytes as the app it stands beside.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]!);
const headers: Record<string, string> = process.argv[3]
  ? JSON.parse(readFileSync(process.argv[3], 'utf8'))
  : { 'content-type': 'application/json; charset=utf-8' };
headers['content-length'] = String(body.length);
const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}/` })}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
