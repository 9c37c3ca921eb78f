// The baseline: a bare node:http server doing the same work as mockpoint's read
// path, answering every request with the same bytes and headers. Prints its URL
// when listening. BENCH_MODE:
//   get   — answers at once (a cached GET);
//   body  — reads the request body to its end, then answers (a webhook POST);
//   delay — answers after a BENCH_DELAY_MS setTimeout (a delayed endpoint).
import { createServer } from 'node:http';

import { body, delay, mode, headers as sent, status } from './bare-answer.mjs';

const headers = { ...sent, 'content-length': Buffer.byteLength(body) };

function answer(res) {
  res.writeHead(status, headers);
  res.end(body);
}

const handlers = {
  get: (_req, res) => answer(res),
  body: (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      Buffer.concat(chunks); // the bytes, as a server that keeps them would have them
      answer(res);
    });
  },
  delay: (_req, res) => {
    setTimeout(answer, delay, res);
  },
};
const handler = handlers[mode];
if (handler === undefined) throw new Error(`unknown BENCH_MODE ${mode}`);

const server = createServer(handler);
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
