// Routes' `bodyJsonPaths` (issue #71) with random code points, seeded, against the built daemon on
// 127.0.0.1 (health watched): expressions of JSONPath pieces and random text are saved or refused
// with INVALID_MATCH (never another error); paths built from random JSON documents, with random
// names, select exactly what walking the document finds; random bodies (JSON or not) to saved
// expressions answer 200 or 404, nothing else.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { expect, it } from 'vitest';
import { requestJson, startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

const PIECES = [
  '$',
  '.a',
  '.b',
  '[0]',
  '[-1]',
  '[*]',
  '.*',
  "['",
  "']",
  '[?(@.a',
  '[?(@.b.c',
  ' > ',
  ' <= ',
  ' == ',
  ' != ',
  ' && ',
  '10',
  '-2.5e1',
  "'x'",
  'null',
  ')]',
  '..',
  '[1:2]',
  '(',
  '"',
];

type Doc = null | boolean | number | string | Doc[] | { [key: string]: Doc };

/** A name with no quote nor backslash (what `['…']` holds), of random code points. */
function nameOf(random: () => number): string {
  return randomText(random, 1 + Math.floor(random() * 6)).replace(/['"\\]/g, '_');
}

/** A random JSON document, at most `depth` deep. */
function docOf(random: () => number, depth: number): Doc {
  const kind = random();
  if (depth === 0 || kind < 0.3) {
    const scalar = random();
    if (scalar < 0.15) return null;
    if (scalar < 0.3) return random() < 0.5;
    if (scalar < 0.6) return Math.round((random() - 0.5) * 1000) / 10;
    return random() < 0.2 ? '' : randomText(random, 1 + Math.floor(random() * 5));
  }
  if (kind < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => docOf(random, depth - 1));
  const out: { [key: string]: Doc } = {};
  for (let i = Math.floor(random() * 4); i > 0; i--) out[nameOf(random)] = docOf(random, depth - 1);
  return out;
}

/** A definite path into `doc` (names quoted, indexes), and the value it leads to; sometimes one step off. */
function pathInto(random: () => number, doc: Doc): { expression: string; value: Doc | undefined } {
  let expression = '$';
  let at: Doc | undefined = doc;
  for (let step = 0; step < 5 && at !== undefined; step++) {
    if (random() < 0.2) break;
    if (Array.isArray(at)) {
      const index: number = random() < 0.15 ? at.length : Math.floor(random() * Math.max(at.length, 1));
      expression += `[${index}]`;
      at = at[index];
    } else if (at !== null && typeof at === 'object') {
      const keys = Object.keys(at);
      const key =
        keys.length === 0 || random() < 0.15 ? nameOf(random) : (keys[Math.floor(random() * keys.length)] as string);
      expression += `['${key}']`;
      at = Object.hasOwn(at, key) ? at[key] : undefined;
    } else break;
  }
  return { expression, value: at };
}

/** JSON text with every non-ASCII unit escaped, so that lone surrogates in names travel as they are. */
function asciiJson(doc: Doc): string {
  return JSON.stringify(doc).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** What WireMock's definite path selects: a value that is not null nor an empty object or array. */
function something(value: Doc | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

it('bodyJsonPaths with random code points: saved or INVALID_MATCH, selects what the document holds, answers 200 or 404', async () => {
  const random = prng(0x7171);
  const daemon = await startDaemon({ args: ['--memory'] });
  const health = await watchWhileFuzzing(daemon);
  const routesUrl = (name: string) => `${daemon.url}/api/endpoints/${name}/routes`;
  const route = (i: number, expression: string) => ({
    id: `r${i}`,
    match: { method: 'POST', path: `/p/${i}`, bodyJsonPaths: [expression] },
    answer: { body: 'hit' },
  });

  // 1. Expressions of pieces and random text: each saved alone, or refused with INVALID_MATCH.
  const saved: string[] = [];
  let refused = 0;
  for (let i = 0; i < 150; i++) {
    let expression = random() < 0.9 ? '$' : '';
    for (let n = Math.floor(random() * 6); n > 0; n--) {
      expression += random() < 0.75 ? (PIECES[Math.floor(random() * PIECES.length)] as string) : randomText(random, 3);
    }
    const put = await requestJson(routesUrl('probe'), { method: 'PUT', body: { routes: [route(0, expression)] } });
    if (put.status === 200) saved.push(expression);
    else {
      expect(put.status, expression).toBe(400);
      expect((put.body as { error: { code: string } }).error.code, expression).toBe('INVALID_MATCH');
      refused++;
    }
  }
  expect(saved.length).toBeGreaterThan(10);
  expect(refused).toBeGreaterThan(10);

  // 2. Definite paths into random documents: the daemon selects what walking the document finds.
  const cases = Array.from({ length: 120 }, () => {
    const doc = docOf(random, 4);
    return { doc, ...pathInto(random, doc) };
  });
  const routes = [...cases.map((one, i) => route(i, one.expression)), ...saved.map((e, i) => route(1000 + i, e))];
  const put = await requestJson(routesUrl('fz'), { method: 'PUT', body: { routes } });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  let hits = 0;
  for (const [i, one] of cases.entries()) {
    const body = asciiJson(one.doc);
    const response = await fetch(`${daemon.url}/endpoint/fz/p/${i}`, { method: 'POST', body });
    await response.arrayBuffer();
    const expected = something(one.value) ? 200 : 404;
    expect(response.status, `${one.expression} in ${body}`).toBe(expected);
    if (expected === 200) hits++;
  }
  expect(hits).toBeGreaterThan(10);
  expect(hits).toBeLessThan(cases.length);

  // 3. Random bodies, JSON or not, to the saved expressions: 200 or 404 only.
  for (const [i] of saved.entries()) {
    for (let n = 0; n < 3; n++) {
      const body = random() < 0.7 ? asciiJson(docOf(random, 4)) : randomText(random, 20);
      const response = await fetch(`${daemon.url}/endpoint/fz/p/${1000 + i}`, { method: 'POST', body });
      await response.arrayBuffer();
      expect([200, 404], `${saved[i]} with ${body}`).toContain(response.status);
    }
  }
  await health.check();
});
