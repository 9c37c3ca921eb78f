// What a request may ask of the Stripe twin (docs/twins.md, "Bounds"), against the built daemon on
// memory, LevelDB and a real redis-server, /api/health and the daemon's RSS watched all through:
// a search query is read once, linearly, and refused past Stripe's 10 clauses or the twin's 1,000
// characters; `expand[]` is refused deeper than Stripe's 4 levels and before an answer passes
// 16 MiB; a webhook endpoint the deliveries could never reach is refused when made; amounts are
// integers within Stripe's bounds; a JSON body nested past 9 levels is a 400, not a stack overflow.
// Every process listens on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { twinDaemon, UNREACHABLE_HOOK_URLS, useTwinRedis } from './helpers/twin.js';
import { type HealthWatch, watchHealth } from './helpers/watch-health.js';

const twinRedis = useTwinRedis();
const AUTH = { authorization: 'Bearer sk_test_bounds' };
const MB = 1024 * 1024;

interface Answer {
  status: number;
  body: { error?: { type: string; code?: string; param?: string; message: string }; [key: string]: unknown };
  ms: number;
}

async function call(root: string, method: string, path: string, form?: Record<string, string>): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${root}${path}`, {
    method,
    headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' },
    ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Answer['body'], ms: performance.now() - started };
}

/** Expects Stripe's 400 `invalid_request_error` with `code` (and `param`). */
function refused(answer: Answer, code: string, param?: string): void {
  const seen = JSON.stringify(answer.body).slice(0, 400);
  expect(answer.status, seen).toBe(400);
  expect(answer.body.error?.type, seen).toBe('invalid_request_error');
  expect(answer.body.error?.code, seen).toBe(code);
  if (param !== undefined) expect(answer.body.error?.param, seen).toBe(param);
}

describe.each(['memory', 'level', 'redis'] as const)('the Stripe twin bounds what one request asks (%s)', (kind) => {
  // Health within 1 s is the behaviour (a backtracking search or a built expansion: 4-36 s), and a
  // loaded machine can add a second to one ask: a second and third try tell the two apart.
  it('reads search linearly, bounds expand[], checks webhook URLs, amounts, JSON depth', {
    timeout: 120_000,
    retry: 2,
  }, async () => {
    const store = kind === 'memory' ? 'memory' : await twinRedis.store(kind);
    const { daemon, root } = await twinDaemon('stripe', store);
    const customer = await call(root, 'POST', '/v1/customers', { email: 'jenny@example.com', 'metadata[o]': '6735' });
    expect(customer.status).toBe(200);
    const pid = daemon.child.pid as number;
    /** Stops a watch and expects health within 1 s and RSS grown less than 200 MB all through it. */
    const healthy = async (watch: HealthWatch, what: string) => {
      const report = await watch.stop();
      const seen = `${what} (${kind}): ${JSON.stringify(report)}`;
      expect(report.failed, seen).toBe(0);
      expect(report.worstMs, seen).toBeLessThan(1_000);
      expect(report.rssPeak - report.rssStart, seen).toBeLessThan(200 * MB);
    };
    let watch = await watchHealth(daemon.url, pid);

    // S1: 2,000 and 4,000 spaces (a 2 KB and 4 KB URL) used to stall the daemon 4 s and 25-36 s.
    for (const spaces of [2_000, 4_000]) {
      const probe = await call(root, 'GET', `/v1/customers/search?query=email:${'+'.repeat(spaces)}'x'y`);
      refused(probe, 'parameter_invalid', 'query');
      expect(probe.body.error?.message).toMatch(/at most 1000/);
    }
    const shortSpaces = await call(root, 'GET', `/v1/customers/search?query=email:${'+'.repeat(900)}'x'y`);
    refused(shortSpaces, 'parameter_invalid', 'query');
    // A 200-clause OR chain is refused before any customer is looked at: Stripe takes 10 clauses.
    const chain = Array.from({ length: 200 }, (_, i) => `email:'a${i}@b.c'`).join(' OR ');
    refused(await call(root, 'GET', `/v1/customers/search?query=${encodeURIComponent(chain)}`), 'parameter_invalid');
    const eleven = Array.from({ length: 11 }, (_, i) => `amount:${i}`).join(' OR ');
    const elevenAnswer = await call(root, 'GET', `/v1/customers/search?query=${encodeURIComponent(eleven)}`);
    refused(elevenAnswer, 'parameter_invalid', 'query');
    expect(elevenAnswer.body.error?.message).toMatch(/at most 10 clauses/);
    refused(await call(root, 'GET', '/v1/customers/search?query=email%3A%22x'), 'parameter_invalid', 'query');
    refused(await call(root, 'GET', '/v1/customers/search?query=a%3A1+AND+b%3A2+OR+c%3A3'), 'parameter_invalid');
    // The syntax Stripe documents still finds her.
    for (const query of [
      'email:"jenny@example.com"',
      "metadata['o']:'6735'",
      'email~"example" AND -email:null',
      'email:"nobody@x.y" OR metadata["o"]:"6735"',
    ]) {
      const found = await call(root, 'GET', `/v1/customers/search?query=${encodeURIComponent(query)}`);
      expect(found.status, query).toBe(200);
      expect(
        (found.body.data as { id: string }[]).map((one) => one.id),
        query,
      ).toEqual([customer.body.id]);
    }
    await healthy(watch, 'search probes');

    // S3: one 4 MB customer, 100 PaymentIntents pointing at it: expanding them all was a 420 MB answer.
    // The customer grows to 4 MB after its PaymentIntents are made (each write of a twin rereads its collections).
    const big = await call(root, 'POST', '/v1/customers', { email: 'big@example.com' });
    expect(big.status).toBe(200);
    for (let i = 0; i < 100; i++) {
      const intent = await call(root, 'POST', '/v1/payment_intents', {
        amount: '1000',
        currency: 'usd',
        customer: String(big.body.id),
      });
      expect(intent.status).toBe(200);
    }
    // (Through a field the document leaves unbounded: a 4 MB `description` is refused, as Stripe refuses
    // a string past its maxLength.)
    const grown = await call(root, 'POST', `/v1/customers/${String(big.body.id)}`, {
      'tax[ip_address]': 'd'.repeat(4 * MB),
    });
    expect(grown.status).toBe(200);
    watch = await watchHealth(daemon.url, pid);
    const whole = await call(root, 'GET', '/v1/payment_intents?limit=100&expand[]=data.customer');
    refused(whole, 'expand_too_large', 'expand');
    expect(whole.body.error?.message).toMatch(/MOCKPOINT_MAX_COLLECTION_BYTES/);
    // Within the bound it expands as before.
    const one = await call(root, 'GET', '/v1/payment_intents?limit=1&expand[]=data.customer');
    expect(one.status).toBe(200);
    expect((one.body.data as { customer: { id: string } }[])[0]?.customer.id).toBe(big.body.id);
    // Stripe's depth: 4 levels (data counts); a fifth is refused before the request does anything.
    expect((await call(root, 'GET', '/v1/payment_intents?limit=1&expand[]=data.customer.a.b')).status).toBe(200);
    const fifth = await call(root, 'GET', '/v1/payment_intents?limit=1&expand[]=data.customer.a.b.c');
    refused(fifth, 'expand_too_deep');
    expect(fifth.body.error?.message).toMatch(/more than 4 levels/);
    await healthy(watch, 'expand probes');

    // M5: a URL the deliveries would refuse is refused when the endpoint is made or changed.
    for (const url of UNREACHABLE_HOOK_URLS) {
      refused(
        await call(root, 'POST', '/v1/webhook_endpoints', { url, 'enabled_events[]': '*' }),
        'url_invalid',
        'url',
      );
    }
    const hook = await call(root, 'POST', '/v1/webhook_endpoints', {
      url: 'http://127.0.0.1:9/hook',
      'enabled_events[]': '*',
    });
    expect(hook.status).toBe(200);
    refused(
      await call(root, 'POST', `/v1/webhook_endpoints/${String(hook.body.id)}`, { url: 'http://169.254.169.254/' }),
      'url_invalid',
      'url',
    );
    const kept = await call(root, 'GET', `/v1/webhook_endpoints/${String(hook.body.id)}`);
    expect(kept.body.url).toBe('http://127.0.0.1:9/hook');

    // Low: amounts as Stripe reads them.
    for (const amount of ['NaN', 'Infinity', '1.5', '1e308', '0x10', '99999999999999999999']) {
      refused(
        await call(root, 'POST', '/v1/payment_intents', { amount, currency: 'usd' }),
        'parameter_invalid_integer',
        'amount',
      );
    }
    refused(
      await call(root, 'POST', '/v1/payment_intents', { amount: '-100', currency: 'usd' }),
      'parameter_invalid_integer',
      'amount',
    );
    refused(await call(root, 'POST', '/v1/payment_intents', { amount: '49', currency: 'usd' }), 'amount_too_small');
    const large = await call(root, 'POST', '/v1/payment_intents', { amount: '100000000', currency: 'usd' });
    refused(large, 'amount_too_large', 'amount');
    expect(large.body.error?.message).toBe('Amount must be no more than $999,999.99');
    expect((await call(root, 'POST', '/v1/payment_intents', { amount: '50', currency: 'usd' })).status).toBe(200);
    // JSON nested 6,000 deep was a 500 (a stack overflow): a 400 with a code now.
    const deep = await fetch(`${root}/v1/customers`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: `{"metadata":${'['.repeat(6000)}${']'.repeat(6000)}}`,
    });
    const deepBody = (await deep.json()) as Answer['body'];
    expect(deep.status, JSON.stringify(deepBody)).toBe(400);
    expect(deepBody.error?.code).toBe('parameter_too_deep');
  });
});
