// Seeded fuzz of a mock file's `signature:` and `state:` (a secret, an hmac header and prefix, a
// scenario and its value: text that reaches a header, the signing key and the store) with random
// code points, against the built daemon on 127.0.0.1: the file is refused exactly when the API
// refuses the same check (with the API's code, at the entry's line and column), an accepted one is
// applied, exported with the secret as stored and applied again unchanged, and the daemon
// answers every request and /api/health after.
import { applyMockFile, exportMockFile, parseMockFile } from '@mockpoint/core/files';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { expect, it } from 'vitest';
import { startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

const SEED = 62;
const CASES = 150;
const SCHEMES = ['standard', 'stripe', 'github', 'slack', 'hmac'] as const;

/** A signature check with random text where a request's or a file's bytes land. */
function randomCheck(random: () => number): Record<string, unknown> {
  const scheme = SCHEMES[Math.floor(random() * SCHEMES.length)] as string;
  const text = () => randomText(random, Math.floor(random() * 24));
  const secret = scheme === 'standard' && random() < 0.5 ? `whsec_${Buffer.from(text()).toString('base64')}` : text();
  const check: Record<string, unknown> = { scheme, secret, enforce: random() < 0.5 };
  if (scheme === 'hmac' || random() < 0.1) {
    check.hmac = random() < 0.5 ? { header: text(), prefix: text() } : { header: 'X-Signature', prefix: text() };
  }
  return check;
}

/** The API's code for a refused body, or `undefined` when it was taken. */
async function apiVerdict(url: string, path: string, body: unknown): Promise<string | undefined> {
  const response = await fetch(`${url}${path}`, { method: 'PUT', body: JSON.stringify(body) });
  const answer = (await response.json()) as { error?: { code: string } };
  if (response.status === 200) return undefined;
  expect(response.status, JSON.stringify(answer)).toBe(400);
  return answer.error?.code;
}

it(`checks ${CASES} random signature checks and states (seed ${SEED}) in a mock file as the API does`, async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const health = await watchWhileFuzzing(daemon);
  const target = { url: daemon.url };
  const random = prng(SEED);
  const verdicts = { accepted: 0, refused: 0 };
  for (let i = 0; i < CASES; i++) {
    const signature = randomCheck(random);
    const scenario = random() < 0.7 ? 'default' : randomText(random, 1 + Math.floor(random() * 8));
    const state = { [scenario]: random() < 0.5 ? 'paid' : randomText(random, Math.floor(random() * 10)) };
    const entry = { name: 'f', signature, state };
    const text = JSON.stringify({ version: 1, endpoints: [entry] }, null, 2);
    // What the API says of each (a file with both wrong may name either first).
    const codes = [
      await apiVerdict(daemon.url, '/api/endpoints/api-check/signature', signature),
      await apiVerdict(daemon.url, '/api/endpoints/api-check/state', state),
    ].filter((code) => code !== undefined);
    let file: ReturnType<typeof parseMockFile> | undefined;
    try {
      file = parseMockFile(text, { file: 'fuzz.json' });
    } catch (error) {
      const refused = error as { code: string; message: string; details?: { reason?: string } };
      expect(refused.code, refused.message).toBe('MOCK_FILE_INVALID');
      expect(refused.message).toMatch(/^fuzz\.json:\d+:\d+: endpoints\[0\]\.(signature|state)/);
      expect(codes, `${text}\n${refused.message}`).toContain(refused.details?.reason);
      const secret = String(signature.secret);
      if (secret.length >= 8) expect(refused.message).not.toContain(secret);
      verdicts.refused++;
      continue;
    }
    expect(codes, `the file took what the API refused: ${text}`).toEqual([]);
    verdicts.accepted++;
    await applyMockFile(file, target);
    const exported = await exportMockFile(target, { names: ['f'] });
    const written = (JSON.parse(exported) as { endpoints: { signature: { secrets: string[] } }[] }).endpoints[0];
    expect(written?.signature.secrets).toEqual([signature.secret]);
    const again = await applyMockFile(parseMockFile(exported, { file: 'export.json' }), target);
    expect(again.unchanged).toEqual(['f']);
    const answered = await fetch(`${daemon.url}/endpoint/f`, { method: 'POST', body: '{}' });
    await answered.arrayBuffer();
    expect(answered.status).toBeLessThan(500);
  }
  // Both ways were reached.
  expect(verdicts.accepted).toBeGreaterThan(10);
  expect(verdicts.refused).toBeGreaterThan(10);
  await health.check();
}, 120_000);
