/** `node bench/support/bare-server.ts FILE`: answers every request with FILE's bytes as JSON, nothing else. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2] as string);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on ${typeof address === 'object' && address ? address.port : 0}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
