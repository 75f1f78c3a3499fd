/**
 * `node bench/support/bare-server.ts FILE [floor]`: answers every request with FILE's
 * bytes as JSON, nothing else; with `floor`, after reading and parsing the request's
 * body (see bare-answer.ts).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { bareListener } from './bare-answer.ts';

const body = readFileSync(process.argv[2] as string);
const server = createServer(bareListener(body, { 'Content-Type': 'application/json' }, { floor: process.argv[3] === 'floor' }));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on ${typeof address === 'object' && address ? address.port : 0}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
