// The journal exported as a Pact V4 contract and imported again, with random code points in every
// part the contract carries (seeded fuzz against the built daemon on 127.0.0.1): the path, the
// query's name and value, the request body (JSON or text) and the answer (JSON, text or bytes that
// are not UTF-8) of each request. The contract is JSON with one interaction per request, each body
// exact, but for JSON escaping a lone surrogate ("\ud800"), which Pact's JSON cannot hold (left
// out, said so); imported into a fresh daemon (`mockpoint import --from pact --apply`) it answers
// every request with the status and bytes the first daemon answered, and Pact's own verifier
// accepts the imported mocks as the provider; both daemons stay healthy.
// Pact's core would otherwise report usage over the network: this machine reaches none.
process.env.PACT_DO_NOT_TRACK = 'true';

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { Verifier } from '@pact-foundation/pact';
import { expect, it } from 'vitest';
import { makeTempDir, requestJson, runCli, startDaemon, useDaemons } from './helpers/daemon.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

useDaemons();

const SEED = 0x9ac7;
const REQUESTS = 40;

/** Every UTF-8 byte of `text` as %XX. */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

interface Case {
  target: string;
  init: RequestInit;
  answer: Record<string, unknown>;
}

/** One random request and the answer queued for it. */
function randomCase(random: () => number, i: number): Case {
  const path = `/c${i}/${percentEncoded(randomText(random, 1 + Math.floor(random() * 10)))}`;
  const query = `?${percentEncoded(randomText(random, 1 + Math.floor(random() * 4)))}=${percentEncoded(randomText(random, Math.floor(random() * 8)))}`;
  const json = random() < 0.5;
  const text = randomText(random, 1 + Math.floor(random() * 30));
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': json ? 'application/json' : 'text/plain; charset=utf-8' },
    body: json ? JSON.stringify({ t: text, n: i }) : text,
  };
  const status = [200, 201, 202, 400, 404, 500][Math.floor(random() * 6)] as number;
  const kind = random();
  const answer: Record<string, unknown> =
    kind < 0.4
      ? { statusCode: status, data: { r: randomText(random, Math.floor(random() * 30)), i } }
      : kind < 0.75
        ? {
            statusCode: status,
            headers: { 'content-type': 'text/plain; charset=utf-8' },
            body: randomText(random, 1 + Math.floor(random() * 30)),
          }
        : {
            statusCode: status,
            headers: { 'content-type': 'application/octet-stream' },
            bodyBase64: Buffer.from([
              0xff,
              0xfe,
              ...Array.from({ length: 20 }, () => Math.floor(random() * 256)),
            ]).toString('base64'),
          };
  return { target: `${path}${query}`, init, answer };
}

/** Each case's answer from `base`, as status and the body's bytes in base64. */
async function answers(base: string, cases: Case[]): Promise<string[]> {
  const seen: string[] = [];
  for (const { target, init } of cases) {
    const response = await fetch(`${base}${target}`, init);
    seen.push(`${response.status} ${Buffer.from(await response.arrayBuffer()).toString('base64')}`);
  }
  return seen;
}

it('random code points in path, query, bodies and answers: exported to Pact and imported, every answer the same', async () => {
  const random = prng(SEED);
  const cases = Array.from({ length: REQUESTS }, (_, i) => randomCase(random, i));
  const dir = await makeTempDir('mockpoint-pact-fuzz-');
  const first = await startDaemon({ cwd: dir, args: ['--memory', '--journal-size', '200'] });
  const firstHealth = await watchWhileFuzzing(first);
  expect(
    (await requestJson(`${first.url}/api/endpoint/add`, { method: 'PUT', body: { name: 'fuzz', data: {} } })).status,
  ).toBe(201);
  // Each request is answered by its own queued answer, in order.
  const queued = await requestJson(`${first.url}/api/endpoints/fuzz/queue`, {
    method: 'POST',
    body: { answers: cases.map((one) => one.answer) },
  });
  expect(queued.status).toBe(201);
  const answered = await answers(`${first.url}/endpoint/fuzz`, cases);

  const pact = await fetch(`${first.url}/api/requests.pact?consumer=fuzzer&provider=fuzz`);
  expect(pact.status).toBe(200);
  const text = await pact.text();
  const contract = JSON.parse(text) as {
    interactions: { request: { path: string; body?: { content: unknown } } }[];
    metadata: { mockpoint: { leftOut: { what: string; why: string }[] } };
  };
  // Only JSON with a lone surrogate escape ("\ud800", sent or answered) is left out: Pact's JSON cannot hold it.
  const leftOut = contract.metadata.mockpoint.leftOut;
  for (const one of leftOut) {
    expect(one.why).toMatch(
      /^its (request|answer's) body is JSON holding a lone surrogate \(an escape such as \\ud800\)/,
    );
  }
  expect(contract.interactions).toHaveLength(REQUESTS - leftOut.length);
  expect(contract.interactions.length).toBeGreaterThan(REQUESTS / 2);
  const kept: number[] = [];
  for (const interaction of contract.interactions) {
    const i = Number(/^\/c(\d+)\//.exec(interaction.request.path)?.[1]);
    kept.push(i);
    // Sent as UTF-8, a lone surrogate arrives as U+FFFD: the text the journal holds is the bytes' reading.
    const sent = Buffer.from(cases[i]?.init.body as string, 'utf8').toString('utf8');
    const content = interaction.request.body?.content;
    expect(typeof content === 'string' ? content : JSON.stringify(content)).toBe(sent);
  }
  const file = join(dir, 'fuzz.json');
  writeFileSync(file, text);

  const second = await startDaemon({ cwd: dir, args: ['--memory'] });
  const secondHealth = await watchWhileFuzzing(second);
  const imported = await runCli({ args: ['import', file, '--from', 'pact', '--apply', '--url', second.url] });
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stderr).not.toContain('left out');
  const exported = kept.map((i) => cases[i] as Case);
  expect(await answers(`${second.url}/endpoint/fuzz`, exported)).toEqual(kept.map((i) => answered[i]));
  // Pact's own verifier reads the contract and finds the imported mocks keep it.
  await new Verifier({
    provider: 'fuzz',
    providerBaseUrl: `${second.url}/endpoint/fuzz`,
    pactUrls: [file],
    logLevel: 'error',
  }).verifyProvider();
  for (const health of [firstHealth, secondHealth]) await health.check();
}, 60_000);
