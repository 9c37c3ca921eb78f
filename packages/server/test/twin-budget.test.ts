// #86 H2 and H3 against the built daemon on memory and LevelDB, /api/health asked every 200 ms and
// the daemon's RSS read all through (both are the behaviour: health within 1 s, RSS bounded).
// - H2: a GitHub twin holding 8,100 issues in 50 repositories, 20 clients looping on
//   `GET /issues?filter=all&per_page=1`, then on `GET /search/issues?q=…`: each request read and
//   sorted every issue before (health worst 4.1-7.2 s, 1-20 requests/s); now a list and a search
//   read an index built once per change of the state, through the daemon's budget of expensive work.
// - H3: 100 Stripe customers of ~52 KB, 20 clients on `GET /v1/payment_intents?limit=100` with four
//   customer expansions (each answer ~15.7 MB, under the 16 MiB `expand_too_large` cap): every
//   answer was built at once (health worst 5.6-9.5 s, RSS +600 MB), then through the budget but
//   written by one `JSON.stringify` each (health and a cheap request 0.9-2.5 s); now admitted
//   through the daemon's budget, past it answered Stripe's 429 with Retry-After, and written in
//   event-loop turns (turns/json-in-turns.ts).
// The bound, 1 s, is the behaviour on a quiet machine. On a busy one (these tests share 2 cores with
// others) /api/health itself is slower whatever the daemon does, so each test first measures, in
// the same run, the worst latency of health and of a cheap request of the same twin while 20
// clients loop on that cheap request, and allows 3 times that when it is more than a third of a
// second: a daemon that blocks for each expensive request (the code before) is 10-100 times its
// baseline, not 3.
// Every process listens on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { requestJson, useDaemons } from './helpers/daemon.js';
import { twinDaemon } from './helpers/twin.js';
import { type HealthReport, watchHealth } from './helpers/watch-health.js';

// Each test's daemon SIGKILLed after it, its data directory removed.
useDaemons();

const MB = 1024 * 1024;
const GITHUB = { authorization: 'token ghp_budget', 'content-type': 'application/json' };
const STRIPE = { authorization: 'Bearer sk_test_budget', 'content-type': 'application/x-www-form-urlencoded' };
/**
 * Room to seed 8,100 issues in one PUT of their collection: each is the issue the twin made (a few
 * KB of URLs holding the port), so the body is tens of MB; at 32 MB a long port number could pass
 * the limit and the daemon refused the PUT before it was sent whole (EPIPE, a flake of this file).
 */
const SEEDING = ['--max-body-bytes', String(96 * MB)];

/** Headers for every client, or each client's own (`client` from 0). */
type ClientHeaders = Record<string, string> | ((client: number) => Record<string, string>);

/**
 * GitHub's headers with a token of each client's own: the twin counts each token's requests as
 * GitHub does (5,000 an hour), and 20 clients reading an index (thousands of requests a phase) used
 * one token's hour up and were refused 403 (stop 88's CI).
 */
const githubClient = (client: number) => ({ ...GITHUB, authorization: `token ghp_budget_${client}` });

/** `clients` loops asking `url` for `ms`; each answer's status counted, and its body read whole. */
async function load(url: string, given: ClientHeaders, clients: number, ms: number) {
  const statuses = new Map<number, number>();
  const refusals: { status: number; retryAfter: string | null; shouldRetry: string | null; body: string }[] = [];
  const until = performance.now() + ms;
  let worstMs = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const headers = typeof given === 'function' ? given(client) : given;
      while (performance.now() < until) {
        const started = performance.now();
        const response = await fetch(url, { headers });
        const body = new Uint8Array(await response.arrayBuffer());
        worstMs = Math.max(worstMs, performance.now() - started);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status !== 200 && refusals.length < 5) {
          const text = new TextDecoder().decode(body.subarray(0, 2000));
          const { headers } = response;
          refusals.push({
            status: response.status,
            retryAfter: headers.get('retry-after'),
            shouldRetry: headers.get('stripe-should-retry'),
            body: text,
          });
        }
      }
    }),
  );
  return { statuses: Object.fromEntries(statuses), refusals, worstMs: Math.round(worstMs) };
}

/**
 * PUTs the seed (tens of MB) and its answer; a connection cut while it was sent (EPIPE, seen only
 * on a machine with a load average of 20 or more) is tried again, twice at most: the seed is the
 * setup, not what the test holds the daemon to.
 */
async function seed(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  for (let tried = 1; ; tried++) {
    try {
      return await requestJson(url, { method: 'PUT', body });
    } catch (error) {
      if (tried === 3) throw error;
    }
  }
}

/** The worst of health's and of the requests' latencies while 20 clients loop on the cheap `url` for `ms`. */
async function baseline(
  daemon: { url: string; child: { pid?: number } },
  url: string,
  headers: ClientHeaders,
  ms: number,
) {
  const watch = await watchHealth(daemon.url, daemon.child.pid as number);
  const seen = await load(url, headers, 20, ms);
  const report = await watch.stop();
  expect(Object.keys(seen.statuses), JSON.stringify(seen)).toEqual(['200']);
  return Math.max(report.worstMs, seen.worstMs);
}

/**
 * The most a latency may be: 1 s, or 3 times the baseline's on a machine too busy for that (see the
 * top), never more than 5 s (what the code before the budget took on a quiet machine: 4-9.5 s).
 */
function boundOf(baselineMs: number): number {
  return Math.min(5_000, Math.max(1_000, 3 * baselineMs));
}

function healthy(report: HealthReport, seen: string, rssMb: number, bound: number): void {
  expect(report.failed, seen).toBe(0);
  expect(report.worstMs, seen).toBeLessThan(bound);
  expect(report.rssPeak - report.rssStart, seen).toBeLessThan(rssMb * MB);
}

describe.each(['memory', 'level'] as const)('the daemon under expensive twin reads (%s)', (store) => {
  // Health within 1 s is the behaviour (4-7 s before), or 3 times the baseline on a busy machine.
  it('H2: lists and searches 8,100 GitHub issues for 20 clients, health within 1 s', {
    timeout: 180_000,
  }, async () => {
    const { daemon, name, root } = await twinDaemon('github', store, {}, SEEDING);
    for (let r = 0; r < 50; r++) {
      const made = await requestJson(`${root}/user/repos`, {
        method: 'POST',
        headers: GITHUB,
        body: { name: `r${r}` },
      });
      expect(made.status).toBe(201);
    }
    const first = { title: 'seed', body: 'seed' };
    expect(
      (await requestJson(`${root}/repos/octocat/r0/issues`, { method: 'POST', headers: GITHUB, body: first })).status,
    ).toBe(201);
    // 8,100 issues in one write of their collection, each the one the twin made, renumbered.
    const collection = `${daemon.url}/api/endpoints/${name}/collections/repos-_-_-issues`;
    const [made] = (await requestJson(collection)).body as { object: Record<string, unknown> }[];
    const base = Date.parse('2026-01-01T00:00:00Z');
    const issues = Array.from({ length: 8_100 }, (_, i) => {
      const repo = `r${i % 50}`;
      const number = Math.floor(i / 50) + 1;
      const text = JSON.stringify(made?.object).replaceAll('octocat/r0', `octocat/${repo}`);
      const object = {
        ...(JSON.parse(text) as Record<string, unknown>),
        id: i + 1,
        number,
        title: `issue ${i} about ${['cats', 'dogs', 'birds'][i % 3]}`,
        created_at: new Date(base + i * 1000).toISOString(),
        updated_at: new Date(base + i * 1000).toISOString(),
      };
      return { id: String(number), scope: `octocat/${repo}`, deleted: false, object };
    });
    expect(JSON.stringify(issues).length, 'the seed fits the body limit').toBeLessThan(96 * MB);
    expect((await seed(collection, issues)).status).toBe(200);

    const list = `${root}/issues?filter=all&per_page=1`;
    const search = `${root}/search/issues?q=dogs&per_page=1`;
    const newest = await requestJson(list, { headers: GITHUB });
    expect((newest.body as { id: number }[])[0]?.id).toBe(8_100);
    expect((await requestJson(search, { headers: GITHUB })).body).toMatchObject({ total_count: 2_700 });

    // The cheap request: one repository's page of one issue.
    const cheapMs = await baseline(daemon, `${root}/repos/octocat/r7/issues?per_page=1`, githubClient, 3_000);
    const bound = boundOf(cheapMs);
    for (const [what, url] of [
      ['GET /issues', list],
      ['GET /search/issues', search],
    ] as const) {
      const watch = await watchHealth(daemon.url, daemon.child.pid as number);
      const seen = await load(url, githubClient, 20, 3_000);
      const report = await watch.stop();
      const said = `${what} (${store}): ${JSON.stringify(seen)} ${JSON.stringify(report)} baseline ${Math.round(cheapMs)} ms`;
      console.info(`H2 ${said}`);
      expect(Object.keys(seen.statuses), said).toEqual(['200']);
      healthy(report, said, 200, bound);
    }
    // A change is read at once: the index is built again.
    const added = await requestJson(`${root}/repos/octocat/r1/issues`, {
      method: 'POST',
      headers: GITHUB,
      body: { title: 'the newest, about dogs' },
    });
    expect(added.status).toBe(201);
    expect((await requestJson(list, { headers: GITHUB })).body).toMatchObject([{ title: 'the newest, about dogs' }]);
    expect((await requestJson(search, { headers: GITHUB })).body).toMatchObject({ total_count: 2_701 });
  });

  it('H3: builds twenty 15.7 MB Stripe answers through the budget, the rest 429, health and a cheap read within 1 s', {
    timeout: 180_000,
  }, async () => {
    const { daemon, root } = await twinDaemon('stripe', store);
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, k) => [`metadata[k${k}]`, 'm'.repeat(250)]));
    let customer = '';
    for (let c = 0; c < 100; c++) {
      // ~52 KB each: Stripe's most metadata keys and a field the document leaves unbounded.
      const form = { email: `c${c}@example.com`, 'tax[ip_address]': 'p'.repeat(38_000), ...metadata };
      const made = await fetch(`${root}/v1/customers`, {
        method: 'POST',
        headers: STRIPE,
        body: new URLSearchParams(form),
      });
      customer = ((await made.json()) as { id: string }).id;
      const intent = { amount: '1000', currency: 'usd', customer, payment_method: 'pm_card_visa', confirm: 'true' };
      const paid = await fetch(`${root}/v1/payment_intents`, {
        method: 'POST',
        headers: STRIPE,
        body: new URLSearchParams(intent),
      });
      expect(paid.status).toBe(200);
    }
    const customers = [
      'customer',
      'latest_charge.customer',
      'latest_charge.payment_intent.customer',
      'payment_method.customer',
    ];
    const heavy = `${root}/v1/payment_intents?limit=100&${customers.map((path) => `expand[]=data.${path}`).join('&')}`;
    const one = await fetch(heavy, { headers: STRIPE });
    const size = (await one.arrayBuffer()).byteLength;
    expect(one.status).toBe(200);
    expect(size).toBeGreaterThan(15 * MB);
    expect(size).toBeLessThan(16 * MB);
    // The cheap request, a customer (52 KB), timed as health is: its baseline first.
    const cheapUrl = `${root}/v1/customers/${customer}`;
    const bound = boundOf(await baseline(daemon, cheapUrl, STRIPE, 3_000));

    const watch = await watchHealth(daemon.url, daemon.child.pid as number);
    // A cheap request of the same twin all through, timed as health is.
    let cheapWorst = 0;
    let loading = true;
    const cheap = (async () => {
      while (loading) {
        const started = performance.now();
        const answer = await fetch(cheapUrl, { headers: STRIPE });
        await answer.arrayBuffer();
        expect(answer.status).toBe(200);
        cheapWorst = Math.max(cheapWorst, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const seen = await load(heavy, STRIPE, 20, 4_000);
    loading = false;
    await cheap;
    const report = await watch.stop();
    const said = `(${store}): ${JSON.stringify({ ...seen, refusals: seen.refusals.slice(0, 1) })} cheap ${Math.round(cheapWorst)} ms ${JSON.stringify(report)} bound ${Math.round(bound)} ms`;
    console.info(`H3 ${said}`);
    expect(seen.statuses[200], said).toBeGreaterThan(0);
    // Twenty at once are past the budget: some wait their turn, the rest are told to come back.
    expect(seen.statuses[429], said).toBeGreaterThan(0);
    expect(
      Object.keys(seen.statuses).filter((status) => status !== '200' && status !== '429'),
      said,
    ).toEqual([]);
    for (const refusal of seen.refusals) {
      expect(Number(refusal.retryAfter), said).toBeGreaterThanOrEqual(1);
      // Stripe's own 429 (the profile's busy style): stripe-node retries it, after Retry-After.
      expect(refusal.shouldRetry, said).toBe('true');
      expect(JSON.parse(refusal.body), said).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit' } });
      expect(refusal.body, said).toMatch(/budget of expensive work/);
    }
    healthy(report, said, 250, bound);
    expect(cheapWorst, said).toBeLessThan(bound);
  });
});
