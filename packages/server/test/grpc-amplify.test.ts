// gRPC schema mode and definitions under requests that amplify, against the built daemon
// (127.0.0.1, bounded). /api/health is asked every 200 ms throughout and must answer within
// 1 s; the RSS is watched. MOCKPOINT_PROBE_BIN=<another build's cli.js> runs the same probe
// against that build (how the figures before the fixes were measured, issue #62):
// - a 1.4 KB proto whose `Node` has 30 `Node` fields, 30 `repeated Node` and a string: one
//   Connect call with `{}` answered 200 with 18.5 MB after 38 s, health unanswered for 30 s,
//   RSS peak 4.2 GB. Now refused at once with RESOURCE_EXHAUSTED naming the bound, in each
//   protocol's own form.
import { connect } from 'node:http2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, startDaemon } from './helpers/daemon.js';
import { putProtos } from './helpers/grpc.js';
import { type HealthReport, watchHealth } from './helpers/watch-health.js';

beforeAll(() => {
  if (process.env.MOCKPOINT_PROBE_BIN === undefined) assertBuilt();
});
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const MiB = 1024 * 1024;

/** `message Node` with `n` fields of type `Node`, `n` of `repeated Node` and a string; `Tree.Get` answers one. */
function nodeProto(n: number): string {
  const fields = [
    ...Array.from({ length: n }, (_, i) => `  Node child_${i} = ${i + 1};`),
    ...Array.from({ length: n }, (_, i) => `  repeated Node children_${i} = ${n + i + 1};`),
    `  string label = ${2 * n + 1};`,
  ];
  return `syntax = "proto3";\npackage demo.v1;\nmessage Node {\n${fields.join('\n')}\n}\nmessage GetRequest {}\nservice Tree { rpc Get(GetRequest) returns (Node); }\n`;
}

/** A request that may take long (a build before the bound took 38 s): its status, headers and text, or what went wrong. */
async function send(
  url: string,
  init: RequestInit,
): Promise<{ status: number; headers: Headers | undefined; text: string }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    return { status: 0, headers: undefined, text: String(error) };
  }
}

/** A native gRPC call of `path` over h2c with an empty message: its `grpc-status` and `grpc-message`. */
function nativeCall(url: string, path: string): Promise<{ status: string; message: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const session = connect(url);
    session.on('error', reject);
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    let status = '';
    let message = '';
    let bytes = 0;
    const note = (headers: Record<string, unknown>) => {
      if (headers['grpc-status'] !== undefined) status = String(headers['grpc-status']);
      if (headers['grpc-message'] !== undefined) message = decodeURIComponent(String(headers['grpc-message']));
    };
    stream.on('response', note);
    stream.on('trailers', note);
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    stream.on('error', reject);
    stream.on('close', () => {
      session.close();
      resolve({ status, message, bytes });
    });
    stream.end(Buffer.alloc(5));
  });
}

function line(what: string, report: HealthReport): string {
  return `${what}: health worst ${Math.round(report.worstMs)} ms over ${report.asked} asks, daemon CPU ${report.cpuMs} ms, RSS ${Math.round(report.rssStart / MiB)} -> peak ${Math.round(report.rssPeak / MiB)} MiB`;
}

describe('gRPC schema mode under amplifying definitions (daemon)', () => {
  it('refuses a schema-mode message past 100,000 values at once, in each protocol; health answers within 1 s', {
    timeout: 300_000,
  }, async () => {
    const daemon = await startDaemon({ args: ['--memory'], bin: process.env.MOCKPOINT_PROBE_BIN });
    const proto = nodeProto(30);
    expect(await putProtos(daemon, 'tree', { 'demo/v1/tree.proto': proto })).toBe(201);
    const pid = daemon.child.pid as number;
    const path = '/demo.v1.Tree/Get';

    const watch = await watchHealth(daemon.url, pid);
    const started = performance.now();
    const answer = await send(`${daemon.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const took = performance.now() - started;
    const report = await watch.stop();
    console.log(
      `${line(`Node 30+30 (${proto.length} bytes) Connect call`, report)}; ${answer.status}, ${answer.text.length} bytes in ${Math.round(took)} ms`,
    );
    expect(report.failed).toBe(0);
    expect(report.worstMs).toBeLessThan(1_000);
    expect(report.rssPeak - report.rssStart).toBeLessThan(256 * MiB);
    // Connect's own form: HTTP 429 with { code: "resource_exhausted", message }.
    expect(answer.status).toBe(429);
    const error = JSON.parse(answer.text) as { code: string; message: string };
    expect(error.code).toBe('resource_exhausted');
    expect(error.message).toContain('demo.v1.Node');
    expect(error.message).toContain('more than 100000 values');

    // gRPC-Web: HTTP 200, grpc-status 8 (RESOURCE_EXHAUSTED) naming the bound.
    const web = await send(`${daemon.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/grpc-web+proto' },
      body: new Uint8Array(5),
    });
    const webStatus = web.headers?.get('grpc-status') ?? /grpc-status:\s*(\d+)/.exec(web.text)?.[1];
    expect(webStatus).toBe('8');
    expect(decodeURIComponent(web.headers?.get('grpc-message') ?? web.text)).toContain('more than 100000 values');

    // Native gRPC over h2c: grpc-status 8 in the trailers, no message sent.
    const native = await nativeCall(daemon.url, path);
    expect(native).toMatchObject({ status: '8', bytes: 0 });
    expect(native.message).toContain('more than 100000 values');
  });
});
