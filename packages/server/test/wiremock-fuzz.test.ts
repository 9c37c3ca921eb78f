// WireMock mappings with random code points (seeded fuzz, the built CLI and daemon on 127.0.0.1): URLs,
// regular expressions, query and header matchers, response header names and values, bodies, scenario
// names and body file names are random text. `mockpoint import` never fails on them: what cannot be
// carried over is listed, the rest is a mock file the daemon starts with; every literal route it kept
// answers its stored status and bytes, and the daemon stays healthy.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { expect, it } from 'vitest';
import { makeTempDir, runCli, startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

const MAPPINGS = 40;

interface StoredRoute {
  match?: {
    path?: string;
    method?: string;
    query?: unknown;
    headers?: unknown;
    body?: unknown;
    bodyPatterns?: unknown;
    url?: unknown;
    state?: unknown;
  };
  answer: { statusCode?: number; body?: string; bodyBase64?: string; data?: unknown; fault?: string };
}

it('WireMock mappings with random code points: imported without failing, what is kept is served exactly', async () => {
  const random = prng(0x317e);
  const text = (max: number) => randomText(random, 1 + Math.floor(random() * max));
  const dir = await makeTempDir('mockpoint-wiremock-fuzz-');
  const mappings = Array.from({ length: MAPPINGS }, (_, i) => {
    const kind = i % 4;
    const request: Record<string, unknown> = { method: 'GET' };
    if (kind === 0) request.urlPath = `/fz/${i}/${text(10)}`;
    else if (kind === 1) request.url = `/fz/${i}/${text(10)}?${text(6)}`;
    else if (kind === 2) request.urlPathPattern = `/fz/${i}/${text(8)}`;
    else request.urlPattern = `/fz/${i}/${text(8)}.*`;
    if (random() < 0.3) request.headers = { [text(6)]: { equalTo: text(6) } };
    if (random() < 0.3) request.queryParameters = { [text(4)]: { matches: text(6) } };
    // Literal text turned into regexes (contains, caseInsensitive, a cookie): escaped, or the mapping left out.
    if (random() < 0.2) request.headers = { 'X-Fz': { contains: text(6) } };
    if (random() < 0.2) request.cookies = { [text(4)]: { [random() < 0.5 ? 'equalTo' : 'contains']: text(6) } };
    if (random() < 0.2) request.bodyPatterns = [{ equalTo: text(6), caseInsensitive: true }, { contains: text(4) }];
    const response: Record<string, unknown> = {
      status: 200 + Math.floor(random() * 300),
      headers: { [random() < 0.5 ? `x-fuzz-${i}` : text(10)]: text(10) },
    };
    const body = random();
    if (body < 0.4) response.body = text(40);
    else if (body < 0.6) response.base64Body = Buffer.from(text(20)).toString('base64');
    else if (body < 0.8) response.bodyFileName = text(12);
    else response.body = `{{${text(6)}}}`;
    const mapping: Record<string, unknown> = { request, response, name: text(8) };
    if (random() < 0.3) {
      mapping.scenarioName = text(10);
      mapping.requiredScenarioState = 'Started';
    }
    return mapping;
  });
  await writeFile(join(dir, 'stubs.json'), JSON.stringify({ mappings }));
  const json = await runCli({ cwd: dir, args: ['import', 'stubs.json', '--name', 'fz', '--json'] });
  expect(json.code, json.stderr).toBe(0);
  expect(json.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('mockpoint import: '))).toEqual([]);
  const parsed = JSON.parse(json.stdout) as { kind: string; leftOut: { what: string; why: string }[] };
  expect(parsed.kind).toBe('wiremock');
  expect(parsed.leftOut.length).toBeGreaterThan(0);
  const out = await runCli({ cwd: dir, args: ['import', 'stubs.json', '--name', 'fz', '--out', 'mock.json'] });
  expect(out.code, out.stderr).toBe(0);
  const routes = JSON.parse(await readFile(join(dir, 'mock.json'), 'utf8')).endpoints[0].routes as StoredRoute[];
  expect(routes.length).toBeGreaterThan(5);
  // Random text became escaped regexes the daemon loaded (contains, a cookie), not dropped conditions.
  const regexes = routes.map((route) => JSON.stringify(route.match?.headers ?? {}));
  expect(regexes.some((one) => one.includes('"x-fz":{"matches":"(?s).*'))).toBe(true);
  expect(regexes.some((one) => one.includes('"cookie":{"matches":"(?:.*;'))).toBe(true);
  const daemon = await startDaemon({ cwd: dir, args: ['--memory', '--config', 'mock.json'] });
  const health = await watchWhileFuzzing(daemon);
  let checked = 0;
  for (const route of routes) {
    const path = route.match?.path ?? '';
    // Literal paths only (those made of urlPath), asked exactly as stored.
    const { headers, query, body, bodyPatterns, url } = route.match ?? {};
    const conditions = [headers, query, body, bodyPatterns, url];
    if (!/^\/fz\/\d+\/[^:*]*$/.test(path) || conditions.some((one) => one !== undefined)) continue;
    const response = await fetch(`${daemon.url}/endpoint/fz${path}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status, path).toBe(route.answer.statusCode ?? 200);
    const stored =
      route.answer.bodyBase64 !== undefined
        ? Buffer.from(route.answer.bodyBase64, 'base64')
        : Buffer.from(route.answer.body ?? '', 'utf8');
    expect(bytes.equals(stored), path).toBe(true);
    checked++;
  }
  expect(checked).toBeGreaterThan(0);
  await health.check();
});
