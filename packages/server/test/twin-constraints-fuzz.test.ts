// Seeded fuzz of the constraints the providers' documents state (docs/twins.md, "What a twin
// refuses"), against the built daemon on 127.0.0.1: write operations of the Stripe and GitHub twins
// drawn by the seed, and for each, bodies valid but for one value its schema refuses (an `enum`,
// `pattern`, `minLength`, `maxLength`, `minimum`, `maximum`, `format`, `type`, `oneOf`, or a
// `required` parameter left out; helpers/constraint-cases.ts). Every one is refused in the
// provider's form — Stripe's `400 invalid_request_error` naming the parameter, GitHub's `422
// Validation Failed` with `errors[].field` and `.code` — and the twin keeps nothing of it (its
// collections unchanged). MOCKPOINT_FUZZ_SEED=<n> replays or explores another draw.
import { prng } from '@mockpoint/testkit/random-text';
import { describe, expect, it } from 'vitest';
import { type BadCase, badCases, formOf, writeOperations } from './helpers/constraint-cases.js';
import { useDaemons } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';

useDaemons();

const SEED = Number(process.env.MOCKPOINT_FUZZ_SEED ?? 8484);
/** Operations drawn per provider, and cases at most per operation: about 15 s a provider. */
const OPERATIONS = 40;
const CASES_PER_OPERATION = 8;

/** `list` shuffled by `random` (Fisher–Yates). */
function shuffled<T>(list: readonly T[], random: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** What is wrong with the answer to a case (`undefined`: refused as the provider refuses it). */
function wrongAnswer(provider: 'stripe' | 'github', status: number, body: unknown, bad: BadCase): string | undefined {
  if (status >= 200 && status < 300) return `answered ${status}`;
  const named = (param: unknown) => param === bad.param || String(param).startsWith(`${bad.param}[`);
  if (provider === 'stripe') {
    const error = (body as { error?: { type?: string; param?: string } }).error;
    if (status !== 400 || error?.type !== 'invalid_request_error') return `answered ${status} ${JSON.stringify(body)}`;
    return named(error.param) ? undefined : `param ${String(error.param)}`;
  }
  // A required field missing: GitHub's request schema names it (`Invalid request.\n\n"ref" wasn't supplied.`).
  const supplied = /^Invalid request\.\n\n"([^"]+)" wasn't supplied\.$/.exec(
    String((body as { message?: unknown }).message),
  );
  if (bad.keyword === 'required' && status === 422 && supplied !== null) {
    return supplied[1] === bad.param ? undefined : `named ${supplied[1]}`;
  }
  const errors = (body as { errors?: { field?: string; code?: string }[] }).errors;
  if (status !== 422 || !Array.isArray(errors)) return `answered ${status} ${JSON.stringify(body).slice(0, 300)}`;
  const first = errors[0];
  if (typeof first?.code !== 'string') return `no errors[].code: ${JSON.stringify(body)}`;
  return named(first.field) ? undefined : `errors[0].field ${String(first.field)}`;
}

describe.each(['stripe', 'github'] as const)('the %s twin', (provider) => {
  it(`refuses every value the document forbids, keeping nothing (seed ${SEED})`, async () => {
    const { load } = await import('@mockpoint/twins');
    const { document, additions } = await load(provider);
    // GitHub answers an object its path names that the twin does not hold (the fuzz's `issue_number`
    // 1 on a fresh twin) before a value (`404`, twin-github-refusal-order.test.ts): with `unseen:
    // "examples"` every object is there, and the value is what is refused.
    const setting = provider === 'github' ? { unseen: 'examples' as const } : {};
    const { daemon, name, root } = await twinDaemon(provider, 'memory', setting);
    const form = provider === 'stripe';
    const random = prng(SEED);
    const collections = async () => (await fetch(`${daemon.url}/api/endpoints/${name}/collections`)).text();
    const failures: string[] = [];
    let sent = 0;
    let operations = 0;
    for (const operation of shuffled(writeOperations(document, additions), random)) {
      if (operations === OPERATIONS) break;
      const cases = badCases(document, operation, random, form);
      if (cases === undefined || cases.length === 0) continue;
      operations++;
      const before = await collections();
      for (const bad of shuffled(cases, random).slice(0, CASES_PER_OPERATION)) {
        const answer = await fetch(`${root}${operation.path}`, {
          method: operation.method,
          headers: {
            authorization: 'Bearer sk_test_fuzz',
            'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
          },
          body: form ? formOf(bad.body) : JSON.stringify(bad.body),
        });
        const text = await answer.text();
        sent++;
        const wrong = wrongAnswer(provider, answer.status, text === '' ? {} : JSON.parse(text), bad);
        if (wrong !== undefined) {
          failures.push(`${operation.method} ${operation.template} ${bad.keyword} ${bad.param}: ${wrong}`);
        }
      }
      if ((await collections()) !== before) failures.push(`${operation.method} ${operation.template}: kept something`);
    }
    expect(failures, `seed ${SEED} (MOCKPOINT_FUZZ_SEED=${SEED} replays it)`).toEqual([]);
    // The draw met enough: the operations and the cases asked for.
    expect(operations).toBe(OPERATIONS);
    expect(sent).toBeGreaterThan(OPERATIONS * 2);
  });
});
