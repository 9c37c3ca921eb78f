// The Bun baseline: a bare `Bun.serve` doing the same work as mockpoint's read path
// (run with `bun bench/bare-bun.mjs`), the same modes and environment as
// bench/bare-server.mjs: get answers at once, body reads the request body to its
// end first, delay answers after BENCH_DELAY_MS. Prints its URL when listening.
/* global Bun */
import { body, delay, headers, mode, status } from './bare-answer.mjs';

const answer = () => new Response(body, { status, headers });

const handlers = {
  get: answer,
  // The bytes, as a server that keeps them would have them.
  body: async (request) => {
    await request.arrayBuffer();
    return answer();
  },
  delay: () => new Promise((resolve) => setTimeout(() => resolve(answer()), delay)),
};
const handler = handlers[mode];
if (handler === undefined) throw new Error(`unknown BENCH_MODE ${mode}`);

// The idle timeout past the delay, as mockpoint sets it.
const server = Bun.serve({ port: 0, hostname: '127.0.0.1', idleTimeout: 65, fetch: handler });
console.log(`listening on http://127.0.0.1:${server.port}`);
process.on('SIGTERM', () => {
  server.stop(true);
  process.exit(0);
});
