// Requests that amplify on a resource route, against the built daemon (127.0.0.1,
// bounded: 3 rounds of 14 requests): a 60-byte `_expand` over 10,000 comments of a
// 27 KB post (270 MB before the bound), a repeated `_expand` on the item route, and
// 8 at once with a filter key of 7,000 dotted segments (~1 s of event loop each
// before). /api/health is asked every 200 ms throughout and must answer within 1 s;
// the daemon's RSS is watched. MOCKPOINT_PROBE_BIN=<another build's cli.js> runs the
// same probe against that build (how the figures before the fix were measured).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, startDaemon } from './helpers/daemon.js';
import { watchHealth } from './helpers/watch-health.js';

beforeAll(() => {
  if (process.env.MOCKPOINT_PROBE_BIN === undefined) assertBuilt();
});
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const MiB = 1024 * 1024;

describe('resource routes under amplifying requests (daemon)', () => {
  it('refuses what would be too large or too costly, and health answers within 1 s throughout', async () => {
    const daemon = await startDaemon({ args: ['--memory'], bin: process.env.MOCKPOINT_PROBE_BIN });
    const pid = daemon.child.pid as number;
    const comments = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, postId: 1 }));
    const put = await fetch(`${daemon.url}/api/endpoints/api/collections`, {
      method: 'PUT',
      body: JSON.stringify({ posts: [{ id: 1, text: 'x'.repeat(27_000) }], comments }),
    });
    expect(put.status).toBe(200);
    const routes = [
      { match: { path: '/comments/*' }, answer: { resource: 'comments' } },
      { match: { path: '/posts/*' }, answer: { resource: 'posts' } },
    ];
    const route = await fetch(`${daemon.url}/api/endpoints/api/routes`, {
      method: 'PUT',
      body: JSON.stringify({ routes }),
    });
    expect(route.status).toBe(200);

    const base = `${daemon.url}/endpoint/api`;
    const expandAll = `${base}/comments?_expand=post`;
    const expandRepeated = `${base}/comments/1?${'_expand=post&'.repeat(1_000)}`;
    const deepKey = `${base}/comments?${Array.from({ length: 7_000 }, () => 'a').join('.')}=1`;
    const answers: { what: string; status: number; bytes: number; code?: string }[] = [];
    const ask = async (what: string, url: string) => {
      let response: Response;
      let body: Buffer;
      try {
        response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
        body = Buffer.from(await response.arrayBuffer());
      } catch (error) {
        answers.push({ what, status: 0, bytes: 0, code: String(error) });
        return;
      }
      let code = '';
      if (response.status >= 400) {
        try {
          code = (JSON.parse(body.toString()) as { error: { code: string } }).error.code;
        } catch {
          code = `(not an error body: ${body.length} bytes)`;
        }
      }
      answers.push({ what, status: response.status, bytes: body.length, code });
    };

    const watch = await watchHealth(daemon.url, pid);
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        ask('expand', expandAll),
        ask('expand', expandAll),
        ask('repeated', expandRepeated),
        ...Array.from({ length: 8 }, () => ask('deep', deepKey)),
        ask('repeated', expandRepeated),
        ask('expand', expandAll),
        ask('page', `${base}/comments?_expand=post&_limit=100`),
      ]);
    }
    const report = await watch.stop();
    const worst = (what: string) => Math.max(...answers.filter((a) => a.what === what).map((a) => a.bytes));
    console.log(
      `collections probe: health worst ${Math.round(report.worstMs)} ms over ${report.asked} asks; ` +
        `daemon CPU ${report.cpuMs} ms; ` +
        `RSS ${Math.round(report.rssStart / MiB)} -> peak ${Math.round(report.rssPeak / MiB)} MiB; ` +
        `largest answer: expand ${worst('expand')} B, repeated ${worst('repeated')} B, deep ${worst('deep')} B; ` +
        `statuses ${[...new Set(answers.map((a) => `${a.what} ${a.status} ${a.code}`))].join(', ')}`,
    );

    expect(report.failed).toBe(0);
    expect(report.worstMs).toBeLessThan(1_000);
    expect(report.rssPeak - report.rssStart).toBeLessThan(300 * MiB);
    for (const answer of answers) {
      if (answer.what === 'expand') expect(answer).toMatchObject({ status: 422, code: 'ANSWER_TOO_LARGE' });
      if (answer.what === 'deep') expect(answer).toMatchObject({ status: 400, code: 'INVALID_QUERY' });
      // The item once, with its post once: the repeats add nothing.
      if (answer.what === 'repeated') expect(answer).toMatchObject({ status: 200, bytes: 27_045 });
      if (answer.what === 'page') expect(answer.status).toBe(200);
    }
    expect((await fetch(`${daemon.url}/api/health`)).status).toBe(200);
  });
});
