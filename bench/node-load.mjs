// A small load generator for machines without wrk (bench/graphql.mjs uses it
// then, and says so): `connections` keep-alive connections, each sending the
// next request when its answer has arrived, for `seconds`; answers requests per
// second, the 99th percentile latency and the non-2xx count, as wrk's summary.
import { Agent, request } from 'node:http';

export function nodeLoad(url, { method = 'GET', body, headers = {}, connections = 50, seconds = 5 }) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const latencies = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const one = () =>
    new Promise((resolve) => {
      const began = performance.now();
      const req = request(
        { agent, host: target.hostname, port: target.port, path: target.pathname + target.search, method, headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode < 200 || res.statusCode >= 400) errors++;
            latencies.push(performance.now() - began);
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const loop = async () => {
    while (performance.now() < until) await one();
  };
  const started = performance.now();
  return Promise.all(Array.from({ length: connections }, loop)).then(() => {
    agent.destroy();
    latencies.sort((a, b) => a - b);
    const elapsed = (performance.now() - started) / 1000;
    return {
      rps: latencies.length / elapsed,
      p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
      errors,
    };
  });
}
