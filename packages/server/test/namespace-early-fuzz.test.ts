// A namespace's app answers `PUT /api/endpoints/{name}` and `/endpoint/…` before its API is
// registered (core http/namespace-early.ts: a path test of its own on the request's bytes). Seeded
// fuzz against the built daemon on 127.0.0.1: endpoint names, subpaths and bodies of random code
// points, sent to a new namespace (answered early) and to one whose API is registered, get the
// same status, code and body from both. The daemon stays alive throughout.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { describe, expect, it } from 'vitest';
import { requestJson, startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

/** `text` as a path segment: percent-encoded whole, or as it is where it has no character a URL reads. */
function segment(random: () => number, text: string): string {
  if (random() < 0.5 && /^[A-Za-z0-9._~-]+$/.test(text)) return text;
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** Status, error code (or body) and content type of an answer, to compare. */
async function seen(response: Response): Promise<unknown> {
  const text = await response.text();
  const type = response.headers.get('content-type');
  const body = type?.startsWith('application/json') && text !== '' ? JSON.parse(text) : text;
  return { status: response.status, type, body };
}

describe('a namespace answering before its API is registered (seeded fuzz against the daemon)', () => {
  it('answers random names, subpaths and bodies as the registered API does', async () => {
    const seed = 20261126;
    const random = prng(seed);
    const daemon = await startDaemon({ args: ['--memory'] });
    const health = await watchWhileFuzzing(daemon);
    const full = 'fuzz-full';
    expect((await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { name: full } })).status).toBe(
      201,
    );
    // Any API read registers a namespace's API.
    expect((await fetch(`${daemon.url}/ns/${full}/api/endpoints`)).status).toBe(200);
    const counts = { saved: 0, refused: 0 };
    for (let n = 0; n < 120; n++) {
      const early = `fuzz-early-${n}`;
      expect(
        (await requestJson(`${daemon.url}/api/namespaces`, { method: 'POST', body: { name: early } })).status,
      ).toBe(201);
      const name =
        random() < 0.7 ? `n${n}${segment(random, randomText(random, 1 + Math.floor(random() * 6)))}` : `ok${n}`;
      const body =
        random() < 0.8
          ? JSON.stringify({ data: { text: randomText(random, 1 + Math.floor(random() * 20)) } })
          : randomText(random, 1 + Math.floor(random() * 30));
      const why = `seed ${seed}, case ${n}, name ${JSON.stringify(name)}, body ${JSON.stringify(body)}`;
      const put = async (ns: string) =>
        seen(await fetch(`${daemon.url}/ns/${ns}/api/endpoints/${name}`, { method: 'PUT', body }));
      const [inEarly, inFull] = [await put(early), await put(full)];
      expect(inEarly, why).toEqual(inFull);
      if ((inEarly as { status: number }).status < 300) counts.saved++;
      else counts.refused++;
      const below = random() < 0.5 ? '' : `/${segment(random, randomText(random, 1 + Math.floor(random() * 5)))}`;
      const method = ['GET', 'HEAD', 'DELETE', 'OPTIONS'][Math.floor(random() * 4)] as string;
      const read = async (ns: string) =>
        seen(await fetch(`${daemon.url}/ns/${ns}/endpoint/${name}${below}`, { method }));
      expect(await read(early), `${why}, ${method} ${below}`).toEqual(await read(full));
      expect((await fetch(`${daemon.url}/api/namespaces/${early}`, { method: 'DELETE' })).status).toBe(204);
      // The registered one's endpoint goes, so the next case's name starts afresh there too.
      await fetch(`${daemon.url}/ns/${full}/api/endpoints/${name}`, { method: 'DELETE' });
    }
    // Both kinds were reached.
    expect(counts.saved).toBeGreaterThan(20);
    expect(counts.refused).toBeGreaterThan(5);
    await health.check();
  });
});
