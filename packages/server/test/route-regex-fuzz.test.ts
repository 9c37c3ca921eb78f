// Regular expressions in a route's match (`{ matches }` / `{ doesNotMatch }`), made of random code
// points (seeded fuzz against the built daemon on 127.0.0.1): each saved through the routes API is
// either compiled (saved, 200) or refused with INVALID_MATCH; a `\Q…\E` quote of random text matches
// exactly that body; requests with long bodies against every saved pattern answer (linear-time
// matching), and /api/health answers within the fuzz bound (5 s) throughout.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { describe, expect, it } from 'vitest';
import { makeTempDir, requestJson, startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

const META = ['(', ')', '[', ']', '{', '}', '*', '+', '?', '|', '^', '$', '.', '\\', '(?=', '(?<=', '\\1', '*+', '(?>'];

/** A random pattern: code points of every kind mixed with regex syntax, RE2-hostile constructs included. */
function randomPattern(random: () => number): string {
  let out = '';
  for (let i = Math.floor(random() * 24); i >= 0; i--) {
    out += random() < 0.4 ? (META[Math.floor(random() * META.length)] as string) : randomText(random, 1);
  }
  return random() < 0.02 ? out.repeat(200) : out;
}

describe('route regular expressions made of random code points (seeded fuzz against the daemon)', () => {
  it('compiles or refuses each with INVALID_MATCH, matches quoted text exactly, and health answers throughout', async () => {
    const seed = 20261125;
    const random = prng(seed);
    const daemon = await startDaemon({ cwd: await makeTempDir() });
    const health = await watchWhileFuzzing(daemon);
    const counts = { compiled: 0, refused: 0, quoted: 0 };
    const attack = `${'a'.repeat(60_000)}!`;
    for (let n = 0; n < 150; n++) {
      const name = `rx-${n}`;
      const pattern = randomPattern(random);
      const why = `seed ${seed}, case ${n}, pattern ${JSON.stringify(pattern.slice(0, 200))}`;
      const where = n % 3;
      const match =
        where === 0
          ? { path: { matches: pattern } }
          : where === 1
            ? { headers: { 'x-k': { doesNotMatch: pattern } } }
            : { bodyPatterns: [{ matches: pattern }] };
      const saved = await requestJson(`${daemon.url}/api/endpoints/${name}/routes`, {
        method: 'PUT',
        body: { routes: [{ id: 'rx', match, answer: { body: 'hit' } }] },
      });
      if (saved.status === 400) {
        expect(saved.body, why).toMatchObject({
          error: { code: 'INVALID_MATCH', message: expect.stringMatching(/pattern refused: /) },
        });
        counts.refused++;
      } else {
        expect(saved.status, why).toBe(200);
        counts.compiled++;
        // Matching runs in linear time: a long body against whatever was saved answers.
        const answer = await fetch(`${daemon.url}/endpoint/${name}/x`, {
          method: 'POST',
          headers: { 'x-k': 'a'.repeat(2000) },
          body: attack,
        });
        expect([200, 404], why).toContain(answer.status);
        await answer.arrayBuffer();
      }
      // A quote of random text (no \E inside, as UTF-8 sends it) matches exactly that body.
      const text = Buffer.from(randomText(random, 1 + Math.floor(random() * 20)), 'utf8')
        .toString('utf8')
        .replaceAll('\\E', '');
      const quoted = await requestJson(`${daemon.url}/api/endpoints/q-${n}/routes`, {
        method: 'PUT',
        body: { routes: [{ id: 'q', match: { bodyPatterns: [{ matches: `\\Q${text}\\E` }] }, answer: { body: 'q' } }] },
      });
      expect(quoted.status, `${why}, quoted ${JSON.stringify(text)}`).toBe(200);
      const hit = await fetch(`${daemon.url}/endpoint/q-${n}/`, { method: 'POST', body: text });
      expect(hit.status, `${why}, quoted ${JSON.stringify(text)}`).toBe(200);
      await hit.arrayBuffer();
      const miss = await fetch(`${daemon.url}/endpoint/q-${n}/`, { method: 'POST', body: `${text}x` });
      expect(miss.status).toBe(404);
      await miss.arrayBuffer();
      counts.quoted++;
    }
    const report = await health.check();
    expect(counts.compiled, JSON.stringify(counts)).toBeGreaterThan(10);
    expect(counts.refused, JSON.stringify(counts)).toBeGreaterThan(10);
    expect(report.rssPeak - report.rssStart, JSON.stringify(report)).toBeLessThan(200 * 1024 * 1024);
    console.log(
      `route regex fuzz: ${JSON.stringify(counts)}, health worst ${Math.round(report.worstMs)} ms, RSS ${Math.round(report.rssStart / 1e6)} -> ${Math.round(report.rssPeak / 1e6)} MB`,
    );
  }, 180_000);
});
