// Memory under slow uploads (#31): 60 clients each upload 5 MB to /endpoint/{name} slowly (80
// chunks of 64 KiB, 40 ms apart), all at once, against the built daemon (--memory) on 127.0.0.1.
// Run twice: to 60 names that have a record but were never requested (nothing of them is cached),
// and to one name that was requested before. Prints the daemon's RSS when idle, while every
// upload is almost complete (the bodies held then are what the daemon keeps), and its peak.
// Bounded: 60 connections, about 4 s of sending per run. Usage: node bench/slow-uploads.mjs

import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { start, stop } from './server-process.mjs';

const CLI = fileURLToPath(new URL('../packages/server/dist/cli.js', import.meta.url));
const CLIENTS = 60;
const CHUNK = 64 * 1024;
const CHUNKS = 80; // 5 MiB
const GAP_MS = 40;

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One slow upload; `almost` resolves when all but the last 5 chunks are written. */
function upload(url, almost) {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-length': String(CHUNK * CHUNKS), 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(CHUNK, 0x61);
    (async () => {
      for (let i = 0; i < CHUNKS; i++) {
        if (i === CHUNKS - 5) almost();
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        await sleep(GAP_MS);
      }
      req.end();
    })().catch(reject);
  });
}

async function run(label, names) {
  const server = await start([CLI, '--memory', '--port', '0', '--host', '127.0.0.1']);
  try {
    for (const name of new Set(names)) {
      await fetch(`${server.url}/api/endpoints/${name}`, { method: 'PUT', body: '{"data":{"ok":true}}' });
    }
    if (new Set(names).size === 1) await (await fetch(`${server.url}/endpoint/${names[0]}`)).text();
    global.gc?.();
    await sleep(500);
    const idle = memory(server.child.pid);
    let waiting = names.length;
    let allAlmost;
    const almost = new Promise((resolve) => {
      allAlmost = resolve;
    });
    const done = Promise.all(
      names.map((name) =>
        upload(`${server.url}/endpoint/${name}`, () => {
          if (--waiting === 0) allAlmost();
        }),
      ),
    );
    await almost;
    const during = memory(server.child.pid);
    const statuses = await done;
    const after = memory(server.child.pid);
    console.log(
      `${label}: RSS idle ${idle.rss.toFixed(0)} MB, with ${names.length} uploads almost complete ${during.rss.toFixed(0)} MB, peak ${after.peak.toFixed(0)} MB (statuses: ${[...new Set(statuses)].join(', ')})`,
    );
  } finally {
    await stop(server);
  }
}

await run(
  'names not requested before',
  Array.from({ length: CLIENTS }, (_, i) => `cold-${i}`),
);
await run(
  'one name requested before',
  Array.from({ length: CLIENTS }, () => 'warm'),
);
