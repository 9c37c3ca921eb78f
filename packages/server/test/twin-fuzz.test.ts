// Seeded fuzz of what a request brings to a twin (docs/twins.md) — form fields with brackets,
// their values, query parameters (expand, limit, starting_after, a search query), path ids and
// Idempotency-Key values — with random code points, sent to the Stripe twin of the built daemon
// on 127.0.0.1, and label names, issue titles and labels sent to the GitHub twin: every request
// is answered below 500 with JSON, a refusal's message stays bounded, a customer's fields and a
// label's name come back exactly as they were sent, and /api/health answers after; saved cards
// (payment methods, attach, SetupIntents and PaymentIntents with random methods) and GitHub's
// rate-limit tokens and If-None-Match values reach the twins as random Latin-1 text too.
import { prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs, requestJson, startDaemon } from './helpers/daemon.js';
import { fuzzedTwin } from './helpers/twin.js';
import { watchWhileFuzzing } from './helpers/watch-health.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 65;
const CASES = 300;
const AUTH = { authorization: 'Bearer sk_test_fuzz' };

/** A form body or query of random fields: random names, some with brackets, random values. */
function randomForm(random: () => number): URLSearchParams {
  const form = new URLSearchParams();
  const fields = 1 + Math.floor(random() * 4);
  for (let i = 0; i < fields; i++) {
    const pick = random();
    const name =
      pick < 0.3
        ? `metadata[${randomText(random, 1 + Math.floor(random() * 12))}]`
        : pick < 0.5
          ? `expand[${Math.floor(random() * 3)}]`
          : pick < 0.7
            ? ['name', 'email', 'description', 'phone'][Math.floor(random() * 4)]
            : randomText(random, 1 + Math.floor(random() * 20));
    form.append(name as string, randomText(random, Math.floor(random() * 40)));
  }
  return form;
}

it(`answers ${CASES} random Stripe requests (seed ${SEED}) below 500, keeps what it was sent exact, and stays healthy`, async () => {
  const { daemon, health } = await fuzzedTwin('stripe');
  const base = `${daemon.url}/endpoint/stripe`;
  const random = prng(SEED);
  const statuses = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    const form = randomForm(random);
    const id = encodeURIComponent(randomText(random, 1 + Math.floor(random() * 30)).replace(/[\uD800-\uDFFF]/g, '?'));
    const kind = i % 5;
    const [method, path, body] =
      kind === 0
        ? ['POST', '/v1/customers', form.toString()]
        : kind === 1
          ? ['GET', `/v1/customers?${form.toString()}`, undefined]
          : kind === 2
            ? ['POST', `/v1/customers/${id}`, form.toString()]
            : kind === 3
              ? ['GET', `/v1/customers/search?query=${encodeURIComponent(form.toString())}`, undefined]
              : ['GET', `/v1/payment_intents/${id}?expand[]=${id}`, undefined];
    const headers: Record<string, string> = { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' };
    // Header values are bytes: code points past Latin-1 cannot be sent, so those go as `?`.
    if (random() < 0.3)
      headers['idempotency-key'] = randomText(random, 1 + Math.floor(random() * 300)).replace(/[^\x20-\x7e]/g, '?');
    const response = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    expect(response.status < 500, `${method} ${path} ${body ?? ''} → ${response.status} ${text.slice(0, 300)}`).toBe(
      true,
    );
    const answer = JSON.parse(text) as { error?: { message: string }; id?: string };
    if (answer.error !== undefined) expect(answer.error.message.length).toBeLessThan(400);
    if (kind === 0 && response.status === 200 && answer.id !== undefined) {
      // What was sent for a field the customer has comes back exact.
      const read = (await (await fetch(`${base}/v1/customers/${answer.id}`, { headers: AUTH })).json()) as Record<
        string,
        unknown
      >;
      for (const field of ['name', 'email', 'description', 'phone']) {
        const sent = form.get(field);
        if (sent !== null) expect(read[field]).toBe(sent === '' ? null : sent);
      }
    }
  }
  // Both answers and refusals were reached.
  expect(statuses.get(200)).toBeGreaterThan(0);
  expect(statuses.get(400)).toBeGreaterThan(0);
  await health.check();
});

it(`answers ${CASES} random GitHub requests (seed ${SEED}) below 500, keeps labels by their exact names, and stays healthy`, async () => {
  const { daemon, health } = await fuzzedTwin('github');
  const base = `${daemon.url}/endpoint/github/repos/octo/app`;
  const headers = { authorization: 'token ghp_fuzz', 'content-type': 'application/json' };
  const random = prng(SEED + 1);
  const statuses = new Map<number, number>();
  // octo/app made first, as a user would (GitHub's 404 below a repository never made).
  const org = `${daemon.url}/endpoint/github/orgs/octo/repos`;
  expect((await fetch(org, { method: 'POST', headers, body: '{"name":"app"}' })).status).toBe(201);
  // A hook whose receiver is a random text: refused by the delivery engine, never by the change.
  await fetch(`${base}/hooks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ config: { url: randomText(random, 40), secret: randomText(random, 20) }, events: ['*'] }),
  });
  for (let i = 0; i < CASES; i++) {
    const text = randomText(random, 1 + Math.floor(random() * 60)).replace(/[\uD800-\uDFFF]/g, '?');
    const kind = i % 4;
    const [method, path, body] =
      kind === 0
        ? ['POST', '/labels', JSON.stringify({ name: text, color: 'ededed' })]
        : kind === 1
          ? ['POST', '/issues', JSON.stringify({ title: text, labels: [text, randomText(random, 200)] })]
          : kind === 2
            ? ['POST', `/issues/${1 + Math.floor(random() * 5)}/labels`, JSON.stringify({ labels: [text] })]
            : ['GET', `/labels/${encodeURIComponent(text)}`, undefined];
    const response = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const answer = await response.text();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    expect(response.status < 500, `${method} ${path} ${body ?? ''} → ${response.status} ${answer.slice(0, 300)}`).toBe(
      true,
    );
    const parsed = JSON.parse(answer) as { message?: string; name?: string; title?: string };
    if (parsed.message !== undefined) expect(parsed.message.length).toBeLessThan(400);
    if (kind === 0 && response.status === 201) {
      expect(parsed.name).toBe(text);
      const read = await fetch(`${base}/labels/${encodeURIComponent(text)}`, { headers });
      expect(((await read.json()) as { name: string }).name).toBe(text);
    }
    if (kind === 1 && response.status === 201) expect(parsed.title).toBe(text);
  }
  expect(statuses.get(201)).toBeGreaterThan(0);
  await health.check();
});

it(`answers ${CASES} random GitHub issue list filters, assignees and label names (seed ${SEED}) below 500, and stays healthy`, async () => {
  const { daemon, health } = await fuzzedTwin('github');
  const base = `${daemon.url}/endpoint/github/repos/octo/app`;
  const headers = { authorization: 'token ghp_fuzz', 'content-type': 'application/json' };
  const random = prng(SEED + 2);
  const org = `${daemon.url}/endpoint/github/orgs/octo/repos`;
  expect((await fetch(org, { method: 'POST', headers, body: '{"name":"app"}' })).status).toBe(201);
  await fetch(`${base}/milestones`, { method: 'POST', headers, body: '{"title":"v1"}' });
  const statuses = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    // Raw random text, lone surrogates included: a label's name reaches its URL, an assignee's login its user.
    const text = randomText(random, 1 + Math.floor(random() * 60));
    const query = encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '?'));
    const kind = i % 4;
    const [method, path, body] =
      kind === 0
        ? ['POST', '/labels', JSON.stringify({ name: text, color: 'ededed' })]
        : kind === 1
          ? [
              'POST',
              '/issues',
              JSON.stringify({ title: 'fuzz', labels: [{ name: text }], assignees: [text], milestone: 1 }),
            ]
          : kind === 2
            ? ['PATCH', '/issues/1', JSON.stringify({ labels: [text], assignee: text })]
            : [
                'GET',
                `/issues?${['milestone', 'labels', 'assignee', 'state', 'sort'][i % 5]}=${query}&per_page=3`,
                undefined,
              ];
    const response = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const answer = await response.text();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    expect(response.status < 500, `${method} ${path} ${body ?? ''} → ${response.status} ${answer.slice(0, 300)}`).toBe(
      true,
    );
    const parsed = JSON.parse(answer) as { message?: string; name?: string };
    if (parsed.message !== undefined) expect(parsed.message.length).toBeLessThan(400);
    // A label is kept by the exact name sent, whatever its URL can show of it.
    if (kind === 0 && response.status === 201) expect(parsed.name).toBe(text);
  }
  expect(statuses.get(201)).toBeGreaterThan(0);
  await health.check();
});

/** A search query of random clauses: fields, keys, operators, quotes, spaces and random code points. */
function randomQuery(random: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const clauses = 1 + Math.floor(random() * 12);
  const parts: string[] = [];
  for (let i = 0; i < clauses; i++) {
    if (random() < 0.2) {
      parts.push(randomText(random, 1 + Math.floor(random() * 40)));
      continue;
    }
    const field =
      random() < 0.3 ? `metadata[${pick(["'", '"', ''])}${randomText(random, 4)}']` : pick(['email', 'amount', 'name']);
    const quote = pick(["'", '"', '']);
    parts.push(
      `${random() < 0.2 ? '-' : ''}${field}${pick([':', '~', '>', '<', '>=', '=', ''])}${' '.repeat(Math.floor(random() * 3) ** 4)}${quote}${randomText(random, Math.floor(random() * 20))}${random() < 0.8 ? quote : ''}`,
    );
  }
  // A lone surrogate cannot be percent-encoded: it goes as `?`.
  return parts.join(pick([' ', ' AND ', ' OR ', ' and ', '  '])).replace(/[\uD800-\uDFFF]/g, '?');
}

it(`reaches search, expand[] and the body readers with ${CASES} random queries, paths and bodies (seed ${SEED}), and stays healthy`, async () => {
  const { daemon, health } = await fuzzedTwin('stripe');
  const base = `${daemon.url}/endpoint/stripe`;
  const random = prng(SEED + 2);
  const form = { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' };
  const customer = (await (
    await fetch(`${base}/v1/customers`, { method: 'POST', headers: form, body: 'email=jenny%40example.com' })
  ).json()) as { id: string };
  await fetch(`${base}/v1/payment_intents`, {
    method: 'POST',
    headers: form,
    body: `amount=1000&currency=usd&customer=${customer.id}`,
  });
  const statuses = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    const kind = i % 3;
    let response: Response;
    if (kind === 0) {
      response = await fetch(`${base}/v1/customers/search?query=${encodeURIComponent(randomQuery(random))}`, {
        headers: AUTH,
      });
    } else if (kind === 1) {
      const paths = Array.from({ length: 1 + Math.floor(random() * 25) }, () =>
        random() < 0.5
          ? ['data', 'customer', 'invoice', 'latest_charge', 'subscription']
              .slice(0, 1 + Math.floor(random() * 6))
              .join('.')
          : randomText(random, 1 + Math.floor(random() * 30)).replace(/[\uD800-\uDFFF]/g, '?'),
      );
      const query = paths.map((path) => `expand[]=${encodeURIComponent(path)}`).join('&');
      response = await fetch(`${base}/v1/payment_intents?limit=${1 + Math.floor(random() * 100)}&${query}`, {
        headers: AUTH,
      });
    } else {
      // A JSON body of random depth and values, or random text as one.
      const depth = Math.floor(random() * 40) ** 2;
      const leaf = JSON.stringify(random() < 0.5 ? randomText(random, 10) : random() * 1e308);
      const body =
        random() < 0.8
          ? `{"amount":${pick2(random, ['1000', '"NaN"', '1.5', '1e308', '"0x10"', '-1'])},"currency":"usd","metadata":${'['.repeat(depth)}${leaf}${']'.repeat(depth)}}`
          : randomText(random, Math.floor(random() * 200));
      response = await fetch(`${base}/v1/payment_intents`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body,
      });
    }
    const text = await response.text();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    expect(response.status < 500, `case ${i} → ${response.status} ${text.slice(0, 300)}`).toBe(true);
    const answer = JSON.parse(text) as { error?: { message: string; type: string } };
    if (answer.error !== undefined) {
      expect(answer.error.type).toBe('invalid_request_error');
      expect(answer.error.message.length).toBeLessThan(600);
    }
  }
  expect(statuses.get(200)).toBeGreaterThan(0);
  expect(statuses.get(400)).toBeGreaterThan(0);
  await health.check();
});

function pick2<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

/** A header value of random Latin-1 text (the bytes a header can carry; anything else as `?`). */
function headerText(random: () => number, most: number): string {
  return randomText(random, 1 + Math.floor(random() * most)).replace(/[^\x21-\x7e\xa1-\xff]/g, '?');
}

it('answers random saved-card requests to the Stripe twin and random tokens and ETags to the GitHub twin below 500', async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  const health = await watchWhileFuzzing(daemon);
  for (const provider of ['stripe', 'github']) {
    const made = await requestJson(`${daemon.url}/api/endpoints/${provider}/twin`, {
      method: 'PUT',
      body: { provider },
    });
    expect(made.status).toBe(200);
  }
  // octo/app made first, so its issues are read (GitHub's 404 below a repository never made).
  const repo = await requestJson(`${daemon.url}/endpoint/github/orgs/octo/repos`, {
    method: 'POST',
    headers: { authorization: 'token ghp_fuzz' },
    body: { name: 'app' },
  });
  expect(repo.status).toBe(201);
  const random = prng(SEED + 2);
  const form = { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' };
  const customer = (await (
    await fetch(`${daemon.url}/endpoint/stripe/v1/customers`, { method: 'POST', headers: form, body: 'name=fuzz' })
  ).json()) as { id: string };
  const statuses = new Map<number, number>();
  for (let i = 0; i < CASES; i++) {
    const text = randomText(random, 1 + Math.floor(random() * 40)).replace(/[\uD800-\uDFFF]/g, '?');
    // A known test card, one that declines, a test method name with a random tail, or random text.
    const pick = random();
    const method =
      pick < 0.2
        ? 'pm_card_visa'
        : pick < 0.4
          ? 'pm_card_chargeDeclinedLostCard'
          : pick < 0.7
            ? `pm_card_${text}`
            : text;
    const kind = i % 5;
    const stripe = `${daemon.url}/endpoint/stripe/v1`;
    const [url, init]: [string, RequestInit] =
      kind === 0
        ? [
            `${stripe}/payment_methods`,
            { method: 'POST', headers: form, body: `type=card&card[token]=${encodeURIComponent(`tok_${text}`)}` },
          ]
        : kind === 1
          ? [
              `${stripe}/payment_methods/${encodeURIComponent(method)}/attach`,
              {
                method: 'POST',
                headers: form,
                body: `customer=${random() < 0.5 ? customer.id : encodeURIComponent(text)}`,
              },
            ]
          : kind === 2
            ? [
                `${stripe}/setup_intents`,
                {
                  method: 'POST',
                  headers: form,
                  body: `customer=${customer.id}&confirm=true&payment_method=${encodeURIComponent(method)}`,
                },
              ]
            : kind === 3
              ? [
                  `${stripe}/payment_intents`,
                  {
                    method: 'POST',
                    headers: form,
                    body: `amount=100&currency=usd&confirm=true&payment_method=${encodeURIComponent(method)}`,
                  },
                ]
              : [
                  `${daemon.url}/endpoint/github/repos/octo/app/issues`,
                  {
                    headers: {
                      authorization: `token ${headerText(random, random() < 0.1 ? 4_000 : 60)}`,
                      'if-none-match': headerText(random, 80),
                    },
                  },
                ];
    const response = await fetch(url, init);
    const answer = await response.text();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    expect(
      response.status < 500,
      `${init.method ?? 'GET'} ${url} ${String(init.body ?? '')} → ${response.status} ${answer.slice(0, 300)}`,
    ).toBe(true);
    if (response.status === 304) expect(answer).toBe('');
    else JSON.parse(answer);
    if (kind === 4) expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  }
  // Saved cards, declines and refusals were all reached.
  expect(statuses.get(200)).toBeGreaterThan(0);
  expect(statuses.get(402)).toBeGreaterThan(0);
  await health.check();
});
