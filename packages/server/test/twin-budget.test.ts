// #86 H2 and H3 against the built daemon on memory and LevelDB, /api/health asked every 200 ms and
// the daemon's RSS read all through (both are the behaviour: health within 1 s, RSS bounded).
// - H2: a GitHub twin holding 8,100 issues in 50 repositories, 20 clients looping on
//   `GET /issues?filter=all&per_page=1`, then on `GET /search/issues?q=…`: each request read and
//   sorted every issue before (health worst 4.1-7.2 s, 1-20 requests/s); now a list and a search
//   read an index built once per change of the state, through the daemon's budget of expensive work.
// - H3: 100 Stripe customers of ~78 KB, 20 clients on `GET /v1/payment_intents?limit=100` with two
//   customer expansions (each answer ~15 MB, under the 16 MiB `expand_too_large` cap): every answer
//   was built at once (health worst 5.6-9.5 s, RSS +600 MB); now they are admitted through the
//   daemon's budget of expensive work, and past it answered Stripe's 429 with Retry-After: RSS
//   bounded. (Health is logged, not yet held to 1 s there: see the test.)
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
/** Room to seed 8,100 issues in one PUT of their collection (10 MB). */
const SEEDING = ['--max-body-bytes', String(32 * MB)];

/** `clients` loops asking `url` for `ms`; each answer's status counted, and its body read whole. */
async function load(url: string, headers: Record<string, string>, clients: number, ms: number) {
  const statuses = new Map<number, number>();
  const refusals: { status: number; retryAfter: string | null; body: string }[] = [];
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const response = await fetch(url, { headers });
        const body = new Uint8Array(await response.arrayBuffer());
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status !== 200 && refusals.length < 5) {
          const text = new TextDecoder().decode(body.subarray(0, 2000));
          refusals.push({ status: response.status, retryAfter: response.headers.get('retry-after'), body: text });
        }
      }
    }),
  );
  return { statuses: Object.fromEntries(statuses), refusals };
}

function healthy(report: HealthReport, seen: string, rssMb: number): void {
  expect(report.failed, seen).toBe(0);
  expect(report.worstMs, seen).toBeLessThan(1_000);
  expect(report.rssPeak - report.rssStart, seen).toBeLessThan(rssMb * MB);
}

describe.each(['memory', 'level'] as const)('the daemon under expensive twin reads (%s)', (store) => {
  // Health within 1 s is the behaviour (4-7 s before); a loaded machine can add a second to one
  // ask (the daemon then used 0.3 s of CPU in 3 s): a second and third try tell the two apart.
  it('H2: lists and searches 8,100 GitHub issues for 20 clients, health within 1 s', {
    timeout: 180_000,
    retry: 2,
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
    expect((await requestJson(collection, { method: 'PUT', body: issues })).status).toBe(200);

    const list = `${root}/issues?filter=all&per_page=1`;
    const search = `${root}/search/issues?q=dogs&per_page=1`;
    const newest = await requestJson(list, { headers: GITHUB });
    expect((newest.body as { id: number }[])[0]?.id).toBe(8_100);
    expect((await requestJson(search, { headers: GITHUB })).body).toMatchObject({ total_count: 2_700 });

    for (const [what, url] of [
      ['GET /issues', list],
      ['GET /search/issues', search],
    ] as const) {
      const watch = await watchHealth(daemon.url, daemon.child.pid as number);
      const seen = await load(url, GITHUB, 20, 3_000);
      const report = await watch.stop();
      const said = `${what} (${store}): ${JSON.stringify(seen)} ${JSON.stringify(report)}`;
      console.info(`H2 ${said}`);
      expect(Object.keys(seen.statuses), said).toEqual(['200']);
      healthy(report, said, 200);
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

  it('H3: builds twenty 15 MB Stripe answers through the budget, the rest 429 with Retry-After, RSS bounded', {
    timeout: 180_000,
  }, async () => {
    const { daemon, root } = await twinDaemon('stripe', store);
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, k) => [`metadata[k${k}]`, 'm'.repeat(500)]));
    let customer = '';
    for (let c = 0; c < 100; c++) {
      // ~78 KB each: Stripe's most metadata and a field the document leaves unbounded.
      const form = { email: `c${c}@example.com`, 'tax[ip_address]': 'p'.repeat(52_000), ...metadata };
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
    const heavy = `${root}/v1/payment_intents?limit=100&expand[]=data.customer&expand[]=data.latest_charge.customer`;
    const one = await fetch(heavy, { headers: STRIPE });
    const size = (await one.arrayBuffer()).byteLength;
    expect(one.status).toBe(200);
    expect(size).toBeGreaterThan(14 * MB);
    expect(size).toBeLessThan(16 * MB);

    const watch = await watchHealth(daemon.url, daemon.child.pid as number);
    // A cheap request of the same twin all through, timed as health is.
    let cheapWorst = 0;
    let loading = true;
    const cheap = (async () => {
      while (loading) {
        const started = performance.now();
        const answer = await fetch(`${root}/v1/customers/${customer}`, { headers: STRIPE });
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
    const said = `(${store}): ${JSON.stringify({ ...seen, refusals: seen.refusals.slice(0, 1) })} cheap ${Math.round(cheapWorst)} ms ${JSON.stringify(report)}`;
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
      expect(JSON.parse(refusal.body), said).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limit' } });
      expect(refusal.body, said).toMatch(/budget of expensive work/);
    }
    // Health within 1 s is not yet held here: each answer's JSON.stringify and the collections of
    // its garbage still block the loop 1-3 s on a loaded machine (logged above; #86, what is left).
    expect(report.failed, said).toBe(0);
    expect(report.rssPeak - report.rssStart, said).toBeLessThan(250 * MB);
  });
});
