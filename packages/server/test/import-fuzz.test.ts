// Imported files with random code points (seeded fuzz, the built CLI and daemon on 127.0.0.1): a
// Mockoon environment and a Postman collection whose route paths, header names and values, rule
// values, template text and bodies are random text. `mockpoint import` never fails on them: what
// cannot be carried over is listed, the rest is a mock file the daemon starts with; every route it
// kept answers its stored status and bytes, and the daemon stays healthy.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { expect, it } from 'vitest';
import { makeTempDir, runCli, startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

const ROUTES = 25;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every UTF-8 byte of `text` as %XX. */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A header name: mostly a token, sometimes random text. */
function headerName(random: () => number, i: number): string {
  return random() < 0.6 ? `x-fuzz-${i}` : randomText(random, 1 + Math.floor(random() * 12));
}

/** Template text: a mapped helper, an unknown one, or a stray brace among random text. */
function templated(random: () => number): string {
  const pieces = ["{{urlParam 'x'}}", "{{queryParam 'q'}}", '{{faker "x"}}', '{{', '}}', "{{header 'X-A'}}"];
  let out = '';
  for (let k = 0; k < 4; k++) {
    out +=
      random() < 0.5 ? randomText(random, 1 + Math.floor(random() * 8)) : pieces[Math.floor(random() * pieces.length)];
  }
  return out;
}

interface StoredRoute {
  match?: { path?: string | { matches?: string }; method?: string; query?: unknown; headers?: unknown; body?: unknown };
  answer: { statusCode?: number; body?: string; bodyBase64?: string; template?: boolean; setState?: unknown };
}

/**
 * The path a route's filter names: a pattern as it is, or the literal inside the regex form a Mockoon
 * path of literal segments imports as (`(?i)/a/b/?`, each segment escaped, `*` as `.*`); '' for any
 * other regex.
 */
function pathOf(path: string | { matches?: string } | undefined): string {
  if (path === undefined) return '/';
  if (typeof path === 'string') return path;
  const regex = path.matches ?? '';
  if (!regex.startsWith('(?i)') || !regex.endsWith('/?')) return '';
  const segments = regex.slice(4, -2).split('/');
  return segments.map((segment) => (segment === '.*' ? '*' : segment.replace(/\\(.)/gsu, '$1'))).join('/') || '/';
}

/**
 * Imports `file` (told from it), starts a daemon with the result and sends each kept route a request
 * its path matches: the stored status and body come back; the daemon stays healthy.
 */
async function importAndServe(dir: string, file: string, expectedKind: string): Promise<number> {
  const json = await runCli({ cwd: dir, args: ['import', file, '--name', 'fz', '--json'] });
  expect(json.code, json.stderr).toBe(0);
  expect(json.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('mockpoint import: '))).toEqual([]);
  const parsed = JSON.parse(json.stdout) as { kind: string; leftOut: { what: string; why: string }[] };
  expect(parsed.kind).toBe(expectedKind);
  for (const one of parsed.leftOut) expect(typeof one.what === 'string' && typeof one.why === 'string').toBe(true);
  const out = await runCli({ cwd: dir, args: ['import', file, '--name', 'fz', '--out', 'mock.json'] });
  expect(out.code, out.stderr).toBe(0);
  const routes = (JSON.parse(await readFile(join(dir, 'mock.json'), 'utf8')).endpoints[0].routes ??
    []) as StoredRoute[];
  const daemon = await startDaemon({ cwd: dir, args: ['--memory', '--config', 'mock.json'] });
  const health = await watchWhileFuzzing(daemon);
  let checked = 0;
  for (const route of routes) {
    const pattern = pathOf(route.match?.path);
    if (!pattern.startsWith('/fz/') || route.match?.query !== undefined || route.match?.headers !== undefined) continue;
    if (Object.hasOwn(route.match ?? {}, 'body') || route.answer.setState !== undefined) continue;
    const segments = pattern.split('/').slice(1);
    // A request path the pattern matches: parameters and * get a value, literals are sent percent-encoded.
    const literal = segments.map((segment) =>
      segment === '*' ? 'any' : /^:[A-Za-z_][A-Za-z0-9_]*$/.test(segment) ? 'v' : decoded(segment),
    );
    if (
      literal.some(
        (segment) => LONE_SURROGATE.test(segment) || segment.includes(':') || segment === '.' || segment === '..',
      )
    ) {
      continue;
    }
    // A regex-form path is matched as sent: send it as a client would (only what must be encoded).
    const encode = typeof route.match?.path === 'object' ? encodeURIComponent : percentEncoded;
    const response = await fetch(`${daemon.url}/endpoint/fz/${literal.map(encode).join('/')}`, {
      method: route.match?.method ?? 'GET',
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status, `${pattern} ${JSON.stringify(route.match)} ${bytes.toString().slice(0, 300)}`).toBe(
      route.answer.statusCode ?? 200,
    );
    if (route.answer.template !== true) {
      const stored =
        route.answer.bodyBase64 !== undefined
          ? Buffer.from(route.answer.bodyBase64, 'base64')
          : Buffer.from(route.answer.body ?? '', 'utf8');
      expect(bytes.equals(stored), `${pattern}: ${bytes.toString('hex')} vs ${stored.toString('hex')}`).toBe(true);
    }
    checked++;
  }
  await health.check();
  return checked;
}

it('a Mockoon environment with random code points: imported without failing, what is kept is served exactly', async () => {
  const random = prng(0x3a7);
  const dir = await makeTempDir('mockpoint-mockoon-fuzz-');
  const routes = Array.from({ length: ROUTES }, (_, i) => ({
    uuid: `r${i}`,
    type: 'http',
    documentation: '',
    method: 'get',
    endpoint: `fz/${i}/${randomText(random, 1 + Math.floor(random() * 10))}`,
    responseMode: null,
    responses: [
      {
        uuid: `a${i}`,
        rules: [{ target: 'query', modifier: 'q', value: randomText(random, 5), invert: false, operator: 'equals' }],
        rulesOperator: 'OR',
        statusCode: 201,
        label: '',
        headers: [{ key: headerName(random, i), value: random() < 0.5 ? randomText(random, 8) : templated(random) }],
        body: templated(random),
        latency: 0,
        bodyType: 'INLINE',
        filePath: '',
        databucketID: '',
        sendFileAsBody: false,
        disableTemplating: false,
        fallbackTo404: false,
        default: false,
        crudKey: 'id',
        callbacks: [],
      },
      {
        uuid: `b${i}`,
        rules: [],
        rulesOperator: 'OR',
        statusCode: 200,
        label: '',
        headers: [{ key: headerName(random, i), value: randomText(random, 8) }],
        body: random() < 0.5 ? randomText(random, Math.floor(random() * 40)) : templated(random),
        latency: 0,
        bodyType: 'INLINE',
        filePath: '',
        databucketID: '',
        sendFileAsBody: false,
        disableTemplating: random() < 0.3,
        fallbackTo404: false,
        default: true,
        crudKey: 'id',
        callbacks: [],
      },
    ],
  }));
  const environment = {
    uuid: 'e',
    lastMigration: 33,
    name: randomText(random, 6),
    endpointPrefix: '',
    latency: 0,
    port: 3000,
    routes,
    rootChildren: routes.map((route) => ({ type: 'route', uuid: route.uuid })),
    folders: [],
    headers: [{ key: headerName(random, 99), value: randomText(random, 6) }],
    data: [{ uuid: 'd', id: 'd1', name: randomText(random, 8), value: '[{"id":1}]' }],
    cors: false,
  };
  await writeFile(join(dir, 'environment.json'), JSON.stringify(environment));
  expect(await importAndServe(dir, 'environment.json', 'mockoon')).toBeGreaterThan(5);
});

it('a Postman collection with random code points: imported without failing, what is kept is served exactly', async () => {
  const random = prng(0x51d);
  const dir = await makeTempDir('mockpoint-postman-fuzz-');
  const item = Array.from({ length: ROUTES }, (_, i) => {
    const url = `https://api.example.com/fz/${i}/${randomText(random, 1 + Math.floor(random() * 10))}`;
    return {
      name: randomText(random, 8),
      request: { method: 'GET', url },
      response: [
        {
          name: randomText(random, 4),
          originalRequest: { method: 'GET', url },
          code: 200 + Math.floor(random() * 300),
          header: [{ key: headerName(random, i), value: randomText(random, 8) }],
          body: randomText(random, Math.floor(random() * 40)),
        },
      ],
    };
  });
  const collection = {
    info: { name: 'fz', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: randomText(random, 4), value: randomText(random, 6) }],
    item: [{ name: randomText(random, 6), item }],
  };
  await writeFile(join(dir, 'fz.postman_collection.json'), JSON.stringify(collection));
  expect(await importAndServe(dir, 'fz.postman_collection.json', 'postman')).toBeGreaterThan(5);
});
