// The baseline: a bare node:http server answering every request with the same
// bytes and headers as mockpoint's read path. Prints its port when listening.
import { createServer } from 'node:http';

const body = process.env.BENCH_BODY ?? '{}';
const status = Number(process.env.BENCH_STATUS ?? 200);
const headers = {
  'content-type': 'application/json; charset=utf-8',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': '*',
  'content-length': Buffer.byteLength(body),
};
const server = createServer((_req, res) => {
  res.writeHead(status, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
