// mockpoint's own work on the Node request path, without sockets: the Node listener of a build
// called with stub requests and responses, CPU time per request (process.cpuUsage) against a bare
// listener that does the bare server's work on the same stubs (bench/bare-server.mjs: writeHead and
// end; for a POST the body's chunks collected and concatenated). What is left is what mockpoint adds
// in JavaScript (the routing, the pipeline or the plain read, the journal, the sink), free of the
// kernel and of wrk, so that it can be compared between builds on a loaded machine, where
// bench/run.mjs's ratios move by ±0.2. The GC that the journal's kept requests cause is counted.
// Bounded: in-process, no port; 6 rounds of BENCH_REQUESTS (default 100,000) per listener.
//
//   BENCH_REPO=/path/to/other/checkout node bench/listener-cpu.mjs   (a built checkout; default this one)
//   BENCH_ONLY=post (or get): that path alone, e.g. under `node --cpu-prof`
//   BENCH_CHUNK=pooled: the POST's chunk a slice of a shared pool (see StubRequest.send)
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { invoice } from './payloads.mjs';

const repo = process.env.BENCH_REPO ?? fileURLToPath(new URL('..', import.meta.url));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100_000);
const ONLY = process.env.BENCH_ONLY?.split(',');
const POOLED = process.env.BENCH_CHUNK === 'pooled';
const core = await import(`${repo}/packages/core/dist/index.js`);
const nodeAdapter = await import(`${repo}/packages/core/dist/node.js`);
const webhook = Buffer.from(
  JSON.stringify({
    id: 'evt_3PqR8sT2uV',
    type: 'payment_intent.succeeded',
    created: 1764000000,
    data: { object: { id: 'pi_3PqR8s', amount: 2000, currency: 'usd' } },
  }),
);

/** A request as the listener reads it: its target, method, raw headers and body events. */
class StubRequest {
  constructor(path, post) {
    this.url = path;
    this.method = post ? 'POST' : 'GET';
    this.rawHeaders = post
      ? ['Host', '127.0.0.1', 'Content-Type', 'application/json', 'Content-Length', String(webhook.length)]
      : ['Host', '127.0.0.1'];
    this.socket = {};
    this.listeners = [];
  }
  on(event, listener) {
    this.listeners.push(event, listener);
    return this;
  }
  once(event, listener) {
    return this.on(event, listener);
  }
  pause() {}
  resume() {}
  /**
   * The body in one chunk, then its end. The chunk in a buffer of its own, as Node's HTTP/1
   * parser hands each one (a copy of the bytes read); BENCH_CHUNK=pooled hands a slice of a
   * shared 8 KiB pool instead, as this bench did before 2026-11-26 20:00 (the listener copied
   * it then, which a daemon never does).
   */
  send() {
    const chunk = POOLED ? webhook : Buffer.allocUnsafeSlow(webhook.length);
    if (!POOLED) webhook.copy(chunk);
    for (const wanted of ['data', 'end']) {
      for (let i = 0; i < this.listeners.length; i += 2) {
        if (this.listeners[i] === wanted) this.listeners[i + 1].call(this, chunk);
      }
    }
  }
}

/** A response that takes the head and the whole body at once, as a free connection does. */
class StubResponse {
  constructor() {
    this.destroyed = false;
    this.writableFinished = false;
    this.headersSent = false;
    this.socket = {};
  }
  writeHead(status, headers) {
    this.statusCode = status;
    this.sentHeaders = headers;
    return this;
  }
  end(body) {
    this.body = body;
    this.writableFinished = true;
  }
  on() {
    return this;
  }
  once() {
    return this;
  }
  setHeader() {}
}

/** CPU ns per request of `listener` over `count` requests. */
function cpuPerRequest(listener, path, post, count) {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const req = new StubRequest(path, post);
    listener(req, new StubResponse());
    if (post) req.send();
  }
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / count;
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const tick = () => new Promise((resolve) => setImmediate(resolve));

async function measure(post) {
  const app = core.createApp();
  const listener = nodeAdapter.createNodeListener(app);
  const name = post ? 'hook' : 'bench';
  const data = post ? { received: true } : invoice;
  const status = post ? 200 : 201;
  const add = await app.request('/api/endpoint/add', {
    method: 'PUT',
    body: JSON.stringify({ name, data, statusCode: status }),
  });
  if (add.status !== 201) throw new Error(`add failed: ${add.status}`);
  const body = JSON.stringify(data);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': '*',
    'content-length': Buffer.byteLength(body),
  };
  const bare = post
    ? (req, res) => {
        const chunks = [];
        req.on('data', (chunk) => chunks.push(chunk));
        req.on('end', () => {
          Buffer.concat(chunks);
          res.writeHead(status, headers);
          res.end(body);
        });
      }
    : (_req, res) => {
        res.writeHead(status, headers);
        res.end(body);
      };
  const path = `/endpoint/${name}`;
  // The first requests look the name's settings up in the store: let them finish.
  for (let i = 0; i < 20; i++) {
    cpuPerRequest(listener, path, post, 1);
    await tick();
  }
  cpuPerRequest(bare, path, post, REQUESTS);
  cpuPerRequest(listener, path, post, REQUESTS);
  const bareNs = [];
  const mockNs = [];
  for (let round = 0; round < 6; round++) {
    bareNs.push(cpuPerRequest(bare, path, post, REQUESTS));
    mockNs.push(cpuPerRequest(listener, path, post, REQUESTS));
    await tick();
  }
  return { bare: median(bareNs), mock: median(mockNs) };
}

console.log(`listener CPU per request, ${repo}, load ${loadavg()[0].toFixed(1)}${POOLED ? ', pooled POST chunk' : ''}`);
for (const [title, post] of [
  ['cached GET (~1 KB JSON)', false],
  ['webhook POST (146 bytes)', true],
]) {
  if (ONLY !== undefined && !ONLY.includes(post ? 'post' : 'get')) continue;
  const { bare, mock } = await measure(post);
  console.log(
    `  ${title.padEnd(26)} bare ${bare.toFixed(0)} ns, mockpoint ${mock.toFixed(0)} ns: its own work ${(mock - bare).toFixed(0)} ns`,
  );
}
process.exit(0);
