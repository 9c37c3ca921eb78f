// Seeded fuzz of what a request brings to the state the twins keep of their own (issue #71): the
// GitHub twin's repository names (creates and renames), git ref names, contents paths and the
// `branch` of a contents write, and the Stripe twin's `Stripe-Version` header and metadata keys and
// values, with random code points (astral, lone surrogates as `%ED…` in a path and `\uD800` in
// JSON, `/`, `..`, `%2F`, NUL, very long), sent to the built daemon on 127.0.0.1 (paths as raw
// bytes, no client normalizing them): every answer is below 500, what is accepted reads back
// exactly (a repository by its name, a ref by its name, a file byte for byte), a version echoed is
// one the twin knows (or a dated one older than them, as sent), never other raw input, a metadata refusal is Stripe's `400` naming its `param`,
// and /api/health answers all through.
import { request } from 'node:http';
import { jsonString, prng, randomText } from '@mockpoint/testkit/random-text';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, killAll, removeTempDirs } from './helpers/daemon.js';
import { fuzzedTwin } from './helpers/twin.js';

beforeAll(() => assertBuilt());
afterEach(() => killAll());
afterAll(() => removeTempDirs());

const SEED = 7171;
const CASES = 240;
const SHA = /^[0-9a-f]{40}$/;
/** Repository names at the edges: dot segments, separators, NUL, a name of 101 characters. */
const EDGE_NAMES = ['.', '..', ' .. ', '...', '.git', '/', '%2F', 'a/../b', '\0', '\uD83D\uDE00', 'x'.repeat(101), ' '];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request with its path sent byte for byte (fetch would resolve `..` and `.` first). */
function send(url: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  const { hostname, port } = new URL(url);
  return new Promise<Answer>((resolve, reject) => {
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const sent = request({ hostname, port, method, path, headers: { ...headers, ...length } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The UTF-8 (WTF-8 for a lone surrogate) bytes of one UTF-16 unit or pair, percent-encoded. */
function percent(char: string): string {
  const code = char.codePointAt(0) as number;
  if (code < 0xd800 || code > 0xdfff) return encodeURIComponent(char);
  const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
  return bytes.map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
}

/**
 * A random name for a path: random code points with `/`, `..`, `.`, `%2F` (literal, sent as
 * `%252F`, or as the bytes `%2F`), NUL and very long runs among them; and how it goes in a URL
 * (each character percent-encoded, `/` raw with `raw`, a lone surrogate as its WTF-8 bytes).
 */
function randomPath(random: () => number, raw: boolean): { text: string; url: string } {
  const pieces: { text: string; url: string }[] = [];
  const count = 1 + Math.floor(random() * 6);
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.15) pieces.push({ text: '/', url: raw ? '/' : '%2F' });
    else if (roll < 0.22) pieces.push({ text: '..', url: '..' });
    else if (roll < 0.27) pieces.push({ text: '.', url: '.' });
    else if (roll < 0.32) pieces.push({ text: '/', url: '%2F' });
    else if (roll < 0.36) pieces.push({ text: '%2F', url: '%252F' });
    else if (roll < 0.4) pieces.push({ text: '\0', url: '%00' });
    else if (roll < 0.42) pieces.push({ text: 'x'.repeat(2_000 + Math.floor(random() * 6_000)), url: '' });
    else pieces.push({ text: randomText(random, 1 + Math.floor(random() * 12)), url: '' });
  }
  let text = '';
  let url = '';
  for (const piece of pieces) {
    text += piece.text;
    url += piece.url !== '' ? piece.url : Array.from(piece.text.match(/[\s\S]/gu) ?? [], percent).join('');
  }
  return { text, url };
}

/** Random bytes, some empty, some large, as base64 (sometimes wrapped in lines, as Git tools send it). */
function randomBytes(random: () => number): { bytes: Buffer; base64: string } {
  const size = random() < 0.1 ? 0 : random() < 0.1 ? 50_000 : Math.floor(random() * 300);
  const bytes = Buffer.from(Array.from({ length: size }, () => Math.floor(random() * 256)));
  const plain = bytes.toString('base64');
  return { bytes, base64: random() < 0.3 ? (plain.match(/.{1,60}/g) ?? []).join('\n') : plain };
}

function hex40(random: () => number): string {
  return Array.from({ length: 40 }, () => Math.floor(random() * 16).toString(16)).join('');
}

it(`answers ${CASES} random repository names, refs and contents paths (seed ${SEED}) below 500, reads back what it took, and stays healthy`, async () => {
  const { daemon, health } = await fuzzedTwin('github', 'gh');
  const root = '/endpoint/gh';
  const headers = { authorization: 'token ghp_fuzz', 'content-type': 'application/json' };
  const random = prng(SEED);
  const statuses = new Map<string, number>();
  /** The names of the repositories accepted and not renamed since, by their lower case. */
  const repos = new Map<string, string>([['app', 'app']]);
  const call = async (method: string, path: string, body?: string) => {
    const answer = await send(daemon.url, method, `${root}${path}`, headers, body);
    const seen = `${method} ${path.slice(0, 300)} ${body?.slice(0, 300) ?? ''} → ${answer.status} ${answer.text.slice(0, 300)}`;
    expect(answer.status < 500, seen).toBe(true);
    statuses.set(`${method} ${answer.status}`, (statuses.get(`${method} ${answer.status}`) ?? 0) + 1);
    return { ...answer, seen, json: () => JSON.parse(answer.text) as Record<string, unknown> };
  };
  // The repository the refs and files go in, made explicitly, with a first commit; the commits it
  // holds (a ref points at one of them: another SHA is GitHub's `422 Object does not exist`).
  expect((await call('POST', '/user/repos', JSON.stringify({ name: 'app', auto_init: true }))).status).toBe(201);
  const held = [
    String(((await call('GET', '/repos/octocat/app/git/ref/heads/main')).json().object as { sha: string }).sha),
  ];
  const heldOne = () => held[Math.floor(random() * held.length)] as string;
  let refsMade = 0;
  for (let i = 0; i < CASES; i++) {
    const kind = i % 6;
    if (kind === 0 || kind === 1) {
      // A repository made, or one made renamed, by a random name.
      const roll = random();
      const sent =
        roll < 0.15
          ? (EDGE_NAMES[Math.floor(random() * EDGE_NAMES.length)] as string)
          : roll < 0.35
            ? randomPath(random, false).text
            : randomText(random, 1 + Math.floor(random() * 40));
      const names = [...repos.values()].filter((name) => name !== 'app');
      const from = names[Math.floor(random() * names.length)];
      const answer =
        kind === 0 || from === undefined
          ? await call('POST', '/user/repos', `{"name":${jsonString(sent)}}`)
          : await call('PATCH', `/repos/octocat/${encodeURIComponent(from)}`, `{"name":${jsonString(sent)}}`);
      if (answer.status !== 201 && answer.status !== 200) continue;
      const name = String(answer.json().name);
      if (answer.status === 200 && from !== undefined) repos.delete(from.toLowerCase());
      repos.set(name.toLowerCase(), name);
      // Readable by its exact name, as any client sends it (fetch resolves `.` and `..` segments).
      const read = await fetch(`${daemon.url}${root}/repos/octocat/${encodeURIComponent(name)}`, { headers });
      expect(read.status, `${answer.seen}: GET by ${name}`).toBe(200);
      expect(((await read.json()) as { name: string }).name).toBe(name);
    } else if (kind === 2) {
      // A ref made by a random name, read back by it (raw `/` or `%2F`), moved and deleted.
      const tail = randomPath(random, random() < 0.5);
      const ref = random() < 0.8 ? `refs/heads/${tail.text}` : tail.text;
      const roll = random();
      const sha = roll < 0.8 ? heldOne() : roll < 0.9 ? hex40(random) : randomText(random, 40);
      const made = await call(
        'POST',
        '/repos/octocat/app/git/refs',
        `{"ref":${jsonString(ref)},"sha":${jsonString(sha)}}`,
      );
      if (made.status !== 201) continue;
      refsMade++;
      expect(made.json().ref, made.seen).toBe(ref);
      const at = ref.startsWith('refs/heads/') ? `heads/${tail.url}` : encodeURIComponent(ref.slice(5));
      const read = await call('GET', `/repos/octocat/app/git/ref/${at}`);
      expect(read.status, read.seen).toBe(200);
      expect(read.json().ref, read.seen).toBe(ref);
      expect((read.json().object as { sha: string }).sha).toBe(sha.toLowerCase());
      const next = heldOne();
      const moved = await call(
        'PATCH',
        `/repos/octocat/app/git/refs/${at}`,
        JSON.stringify({ sha: next, force: true }),
      );
      expect(moved.status, moved.seen).toBe(200);
      expect((moved.json().object as { sha: string }).sha).toBe(next);
      if (random() < 0.5) {
        expect((await call('DELETE', `/repos/octocat/app/git/refs/${at}`)).status).toBe(204);
        expect((await call('GET', `/repos/octocat/app/git/ref/${at}`)).status).toBe(404);
      }
    } else if (kind === 3) {
      // Random ref paths read, moved and deleted: refused or answered, never a 500.
      const at = randomPath(random, true).url;
      const method = ['GET', 'PATCH', 'DELETE'][Math.floor(random() * 3)] as string;
      const route = method === 'GET' ? 'git/ref' : random() < 0.5 ? 'git/refs' : 'git/matching-refs';
      await call(
        method,
        `/repos/octocat/app/${route}/${at}`,
        method === 'PATCH' ? JSON.stringify({ sha: hex40(random) }) : undefined,
      );
    } else {
      // A file written at a random path with random bytes and a random `branch`, read back byte for byte.
      const path = randomPath(random, random() < 0.5);
      const { bytes, base64 } = randomBytes(random);
      const body: Record<string, unknown> = { message: randomText(random, Math.floor(random() * 60)), content: base64 };
      if (random() < 0.5) body.branch = random() < 0.5 ? randomPath(random, true).text : randomText(random, 30);
      const text = `{${Object.entries(body)
        .map(([key, value]) => `"${key}":${jsonString(String(value))}`)
        .join(',')}}`;
      const put = await call('PUT', `/repos/octocat/app/contents/${path.url}`, text);
      if (kind === 5)
        await call(random() < 0.5 ? 'GET' : 'DELETE', `/repos/octocat/app/contents/${randomPath(random, true).url}`);
      if (put.status !== 201) continue;
      held.push(String((put.json().commit as { sha: string }).sha));
      const content = put.json().content as { path: string; sha: string; size: number };
      expect(content.size, put.seen).toBe(bytes.length);
      expect(content.sha).toMatch(SHA);
      const read = await call('GET', `/repos/octocat/app/contents/${path.url}`);
      expect(read.status, read.seen).toBe(200);
      const file = read.json() as { path: string; content: string; sha: string };
      expect(file.path).toBe(content.path);
      expect(Buffer.from(file.content, 'base64').equals(bytes), read.seen).toBe(true);
      expect(file.sha).toBe(content.sha);
      if (random() < 0.5) {
        const gone = await call(
          'DELETE',
          `/repos/octocat/app/contents/${path.url}`,
          JSON.stringify({ message: 'fuzz', sha: file.sha }),
        );
        expect(gone.status, gone.seen).toBe(200);
        const after = await call('GET', `/repos/octocat/app/contents/${path.url}`);
        expect(after.status, after.seen).toBe(404);
      }
    }
  }
  // Every repository accepted and not renamed since is listed by its exact name.
  const listed = new Set<string>();
  for (let page = 1; page <= 10; page++) {
    const answer = await call('GET', `/user/repos?per_page=100&page=${page}`);
    const items = JSON.parse(answer.text) as { name: string }[];
    for (const item of items) listed.add(item.name);
    if (items.length < 100) break;
  }
  expect([...repos.values()].filter((name) => !listed.has(name))).toEqual([]);
  // Creates, refs and files were accepted, and refusals reached.
  for (const seen of ['POST 201', 'PUT 201', 'POST 422', 'PUT 422'])
    expect(statuses.get(seen), seen).toBeGreaterThan(0);
  expect(refsMade, 'refs made').toBeGreaterThan(0);
  await health.check();
});

it(`answers ${CASES} random Stripe-Version headers and metadata (seed ${SEED}) below 500, echoes only known versions, keeps metadata exact, and stays healthy`, async () => {
  const { daemon, health, twin } = await fuzzedTwin('stripe');
  const { known } = (twin as { profile: { versions: { known: string[] } } }).profile.versions;
  const random = prng(SEED + 1);
  const statuses = new Map<number, number>();
  let customer = '';
  for (let i = 0; i < CASES; i++) {
    const headers: Record<string, string> = {
      authorization: 'Bearer sk_test_fuzz',
      'content-type': 'application/x-www-form-urlencoded',
    };
    // A known version, one with a random tail, an older dated one, or random Latin-1 text (the
    // bytes a header carries; CR, LF and NUL as `?`: Node refuses to send them).
    const roll = random();
    const version =
      roll < 0.2
        ? (known[Math.floor(random() * known.length)] as string)
        : roll < 0.4
          ? `${known[Math.floor(random() * known.length)]}${randomText(random, 1 + Math.floor(random() * 8))}`
          : roll < 0.5
            ? `20${Math.floor(random() * 30)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 10)}`
            : randomText(random, 1 + Math.floor(random() * (random() < 0.1 ? 3_000 : 60)));
    if (random() < 0.7) headers['stripe-version'] = version.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
    // Random metadata keys and values, some past Stripe's bounds (40 and 500 characters).
    const metadata: [string, string][] = Array.from({ length: Math.floor(random() * 5) }, () => [
      randomText(random, random() < 0.1 ? 41 + Math.floor(random() * 20) : 1 + Math.floor(random() * 40)),
      randomText(random, random() < 0.1 ? 501 + Math.floor(random() * 100) : Math.floor(random() * 80)),
    ]);
    // A form carries any code point but a lone surrogate (no UTF-8 for it): those go as `?`.
    const clean = (text: string) => text.replace(/[\uD800-\uDFFF]/g, '?');
    const form = new URLSearchParams();
    for (const [key, value] of metadata) form.append(`metadata[${clean(key)}]`, clean(value));
    const update = customer !== '' && i % 2 === 1;
    const url = `${daemon.url}/endpoint/stripe/v1/customers${update ? `/${customer}` : ''}`;
    const response = await fetch(url, { method: 'POST', headers, body: form.toString() });
    const text = await response.text();
    const seen = `${headers['stripe-version']?.slice(0, 100)} ${form.toString().slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    expect(response.status < 500, seen).toBe(true);
    // Echoed: a known version, or a dated one older than them all, as sent (docs/twins.md, "API versions").
    const echoed = response.headers.get('stripe-version');
    if (echoed !== null && !known.includes(echoed)) {
      expect(echoed, seen).toMatch(/^\d{4}-\d{2}-\d{2}(\.[a-z]{1,20})?$/);
      expect(echoed < (known[0] as string), seen).toBe(true);
      expect(echoed).toBe(headers['stripe-version']?.trim());
    }
    const answer = JSON.parse(text) as {
      id?: string;
      metadata?: Record<string, string>;
      error?: { type: string; message: string; param?: string };
    };
    if (answer.error !== undefined) {
      expect(response.status, seen).toBe(400);
      expect(answer.error.type).toBe('invalid_request_error');
      expect(answer.error.message.length, seen).toBeLessThan(800);
      if (!answer.error.message.startsWith('Invalid Stripe API version')) {
        expect(answer.error.param, seen).toMatch(/^metadata/);
      }
      continue;
    }
    expect(response.status, seen).toBe(200);
    if (!update) customer = answer.id as string;
    // Every key and value sent comes back exact (an empty value removes its key, as Stripe does).
    const read = (await (
      await fetch(`${daemon.url}/endpoint/stripe/v1/customers/${customer}`, { headers })
    ).json()) as { metadata: Record<string, string> };
    const sent = Object.fromEntries(form.entries());
    for (const [param, value] of Object.entries(sent)) {
      const key = param.slice('metadata['.length, -1);
      // A key with brackets is read as deeper parameters (and refused): no key of its own.
      if (/[[\]]/.test(key)) continue;
      if (value === '') expect(read.metadata[key], seen).toBeUndefined();
      else expect(read.metadata[key], seen).toBe(value);
    }
  }
  expect(statuses.get(200)).toBeGreaterThan(0);
  expect(statuses.get(400)).toBeGreaterThan(0);
  await health.check();
});
