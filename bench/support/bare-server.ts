/**
 * `node bench/support/bare-server.ts FILE [floor]`: answers every request with FILE's
 * bytes as JSON, nothing else. With `floor`, it first reads the request's body and
 * parses it as JSON: the least any JSON-RPC endpoint does, a yardstick for the MCP
 * rows beside the bare server, which never reads the request.
 */
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';

const body = readFileSync(process.argv[2] as string);
const floor = process.argv[3] === 'floor';

function answer(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
}

const server = createServer((req, res) => {
  if (!floor) return answer(res);
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      answer(res);
    } catch {
      res.writeHead(400).end();
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on ${typeof address === 'object' && address ? address.port : 0}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
