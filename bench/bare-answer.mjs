// What both bare baselines (bench/bare-server.mjs on node:http, bench/bare-bun.mjs on Bun.serve)
// answer, from the environment the bench scripts give them: the body and status of every answer,
// the mode (get, body, delay), the delay of the delay mode, and the headers mockpoint sends.
export const body = process.env.BENCH_BODY ?? '{}';
export const status = Number(process.env.BENCH_STATUS ?? 200);
export const mode = process.env.BENCH_MODE ?? 'get';
export const delay = Number(process.env.BENCH_DELAY_MS ?? 100);
export const headers = {
  'content-type': 'application/json; charset=utf-8',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': '*',
};
