// Route patterns with several parameters in one segment (`/f/:a-:b.txt`), made
// of random code points (seeded fuzz against the built daemon on 127.0.0.1):
// each save is accepted or refused with INVALID_ROUTE_PATTERN as the documented
// rule says, and each request to an accepted route answers with the parameters
// a lazy regular expression of the escaped literals gives (the test's own
// reading of "each parameter takes the shortest non-empty run"), or 404
// NO_ROUTE_MATCHED when it gives none. The daemon stays alive throughout.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { describe, expect, it } from 'vitest';
import { makeTempDir, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

/** Every UTF-8 byte of `text` as %XX (a lone surrogate becomes U+FFFD's bytes, as anywhere in UTF-8). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** What a server decodes `percentEncoded(text)` to. */
function decoded(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

type Part = { literal: string; written: string } | { param: string };

const NAME_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789';

function paramName(random: () => number, index: number): string {
  let name = NAME_CHARS.charAt(Math.floor(random() * 53));
  for (let i = Math.floor(random() * 4); i > 0; i--) name += NAME_CHARS.charAt(Math.floor(random() * 63));
  return `${name}${index}`; // unique within the pattern
}

/**
 * A literal as the pattern writes it: as it is (when it has no `:`, `%` or `/`),
 * but with a name character right after a parameter, or right before one,
 * percent-encoded; or percent-encoded whole.
 */
function writeLiteral(
  random: () => number,
  text: string,
  afterParam: boolean,
  beforeParam: boolean,
): { literal: string; written: string } {
  if (random() < 0.5 && !/[:%/]/.test(text)) {
    const chars = [...text];
    const name = (c: string | undefined) => c !== undefined && /^[A-Za-z0-9_]$/.test(c);
    const last = chars.length - 1;
    const written = chars
      .map((c, i) =>
        (afterParam && i === 0 && name(c)) || (beforeParam && i === last && name(c)) ? percentEncoded(c) : c,
      )
      .join('');
    return { literal: text, written };
  }
  return { literal: decoded(text), written: percentEncoded(text) };
}

/** The parameters when `segment` fits `parts`, by a lazy regular expression of the escaped literals. */
function oracle(parts: Part[], segment: string): Record<string, string> | undefined {
  const source = parts
    .map((part) => ('param' in part ? '([\\s\\S]+?)' : part.literal.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')))
    .join('');
  const found = new RegExp(`^${source}$`).exec(segment);
  if (found === null) return undefined;
  const names = parts.flatMap((part) => ('param' in part ? [part.param] : []));
  return Object.fromEntries(names.map((name, i) => [name, found[i + 1] as string]));
}

describe('segments with several parameters, made of random code points (seeded fuzz against the daemon)', () => {
  it('saves or refuses each pattern as documented, and answers each request with the parameters it should', async () => {
    const seed = 20261124;
    const random = prng(seed);
    const daemon = await startDaemon({ cwd: await makeTempDir() });
    const health = await watchWhileFuzzing(daemon);
    const counts = { matched: 0, unmatched: 0, refusedText: 0, refusedAdjacent: 0, refusedLength: 0 };
    const CASES = 240;
    for (let n = 0; n < CASES; n++) {
      const name = `pf-${n}`;
      // 1-4 parameters, literal text between them and maybe before and after; one case in ten glues two.
      const params = 1 + Math.floor(random() * 4);
      const glue = params > 1 && random() < 0.1 ? 1 + Math.floor(random() * (params - 1)) : -1;
      // One case in twelve has long literals, so that some segments pass the 256-character bound.
      const long = random() < 1 / 12 ? 40 : 0;
      const parts: Part[] = [];
      if (random() < 0.5)
        parts.push(writeLiteral(random, randomText(random, 1 + Math.floor(random() * 4)), false, true));
      for (let i = 0; i < params; i++) {
        if (i > 0 && i !== glue) {
          parts.push(writeLiteral(random, randomText(random, 1 + long + Math.floor(random() * 5)), true, true));
        }
        parts.push({ param: paramName(random, i) });
      }
      if (random() < 0.5)
        parts.push(writeLiteral(random, randomText(random, 1 + Math.floor(random() * 4)), true, false));
      const segment = parts.map((part) => ('param' in part ? `:${part.param}` : part.written)).join('');
      const pattern = `/f/${segment}`;
      const why = `seed ${seed}, case ${n}, pattern ${JSON.stringify(pattern)}`;

      const saved = await requestJson(`${daemon.url}/api/endpoints/${name}/routes`, {
        method: 'PUT',
        body: {
          routes: [
            { id: 'plain', match: { path: '/f/plain' }, answer: { body: 'plain' } },
            { id: 'mixed', match: { path: pattern }, answer: { body: 'mixed' } },
          ],
        },
      });
      const refusal = (pattern: RegExp) => ({
        status: 400,
        body: { error: { code: 'INVALID_ROUTE_PATTERN', message: expect.stringMatching(pattern) } },
      });
      if (/[?#\s*]/.test(segment)) {
        expect(saved, why).toMatchObject(refusal(/must not contain|\* is allowed only/));
        counts.refusedText++;
        continue;
      }
      if (glue !== -1) {
        expect(saved, why).toMatchObject(refusal(/has two parameters with no literal text between them/));
        expect((saved.body as { error: { message: string } }).error.message, why).toContain(`segment "${segment}"`);
        counts.refusedAdjacent++;
        continue;
      }
      if (segment.length > 256) {
        expect(saved, why).toMatchObject(refusal(/more than 256/));
        counts.refusedLength++;
        continue;
      }
      expect(saved.status, why).toBe(200);

      // The request: the pattern filled in with random values, and one time in four changed a little.
      let request = parts
        .map((part) => ('param' in part ? randomText(random, 1 + Math.floor(random() * 6)) : part.literal))
        .join('');
      if (random() < 0.25) {
        const at = Math.floor(random() * request.length);
        request = random() < 0.5 ? request.slice(0, at) + request.slice(at + 1) : randomText(random, 1 + at);
      }
      // (An empty, `.` or `..` segment is not one a URL keeps.)
      if (request === '' || request === '.' || request === '..') request = 'x';
      const arrived = decoded(request);
      const expected = oracle(parts, arrived);
      const answer = await fetch(`${daemon.url}/endpoint/${name}/f/${percentEncoded(request)}`);
      const text = await answer.text();
      const requestWhy = `${why}, request segment ${JSON.stringify(arrived)}`;
      if (expected === undefined) {
        expect([answer.status, JSON.parse(text).error.code], requestWhy).toEqual([404, 'NO_ROUTE_MATCHED']);
        counts.unmatched++;
      } else {
        expect([answer.status, text], requestWhy).toEqual([200, arrived === 'plain' ? 'plain' : 'mixed']);
        const journal = (await requestJson(`${daemon.url}/api/endpoints/${name}/requests`)).body as {
          requests: { params: Record<string, string> }[];
        };
        if (arrived !== 'plain') expect(journal.requests.at(-1)?.params, requestWhy).toEqual(expected);
        counts.matched++;
      }
    }
    expect(daemon.child.exitCode, daemon.stderr).toBeNull();
    await health.check();
    // The fuzz reached every outcome.
    expect(counts.matched, JSON.stringify(counts)).toBeGreaterThan(50);
    expect(counts.unmatched, JSON.stringify(counts)).toBeGreaterThan(10);
    expect(counts.refusedText, JSON.stringify(counts)).toBeGreaterThan(5);
    expect(counts.refusedAdjacent, JSON.stringify(counts)).toBeGreaterThan(5);
    expect(counts.refusedLength, JSON.stringify(counts)).toBeGreaterThan(0);
  });
});
