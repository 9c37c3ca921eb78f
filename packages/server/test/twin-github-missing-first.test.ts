// GitHub answers the missing object first (#84): a write whose path names an object the twin does
// not hold AND whose body holds a value GitHub refuses is answered as if the body were valid — its
// `404 Not Found` (or the words GitHub uses for that object: `Branch not found`, `422 Reference
// does not exist`), not the `422` of the value. The cases are twin-github-missing.test.ts's (every
// write below `/repos/{owner}/{repo}/` naming another object, from GitHub's document), each sent
// once per constraint its body breaks (`enum`, `pattern`, `maxLength`, a type, a required field
// left out: constraint-cases.ts, seeded), on a repository made with `POST /user/repos`; nothing is
// kept. Against the built daemon on memory and LevelDB; every process listens on 127.0.0.1.
import { prng } from '@mockpoint/testkit/random-text';
import { describe, expect, it } from 'vitest';
import { type BadCase, badCases } from './helpers/constraint-cases.js';
import { ANSWERS, bodySchema, CASES, DOC, NOT_FOUND, REPO } from './helpers/github-missing-cases.js';
import { sharedTwinDaemon } from './helpers/twin.js';

const HEADERS = { authorization: 'Bearer ghp_first84', 'content-type': 'application/json' };

interface Sent {
  operation: string;
  path: string;
  bad: BadCase;
}

/** Each case's body broken once per keyword the document's constraints give it. */
function broken(): Sent[] {
  const random = prng(84);
  const out: Sent[] = [];
  for (const one of CASES.sent) {
    const schema = bodySchema(one.spec);
    if (schema?.properties === undefined) continue;
    const [method, template] = one.operation.split(' ') as [string, string];
    const operation = { method: method as 'POST', template, path: one.path, body: schema };
    const seen = new Set<string>();
    for (const bad of badCases(DOC, operation, random, false) ?? []) {
      if (seen.has(bad.keyword)) continue;
      seen.add(bad.keyword);
      out.push({ operation: one.operation, path: one.path, bad });
    }
  }
  return out;
}

const SENT = broken();

/** The value of each path parameter a repository can be made to hold (a file written, an environment put). */
const HELD: Record<string, string> = { branch: 'main', ref: 'heads/main', environment_name: 'prod', path: 'README.md' };

/** The cases whose path names only objects of {@link HELD}, sent where they are held. */
function heldCases(): Sent[] {
  return SENT.flatMap((one) => {
    const names = [...one.operation.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string).slice(2);
    if (!names.every((name) => name in HELD)) return [];
    let path = one.operation.split(' ')[1] as string;
    for (const [name, value] of Object.entries({ owner: 'octocat', repo: REPO, ...HELD }))
      path = path.replace(`{${name}}`, value.includes('/') && name !== 'ref' ? encodeURIComponent(value) : value);
    return [{ ...one, path }];
  });
}

describe.each(['memory', 'level'] as const)('the GitHub twin answers the missing object first (%s)', (store) => {
  const twin = sharedTwinDaemon('github', async () => store, 2);

  it('finds invalid bodies below refs, contents, branches and environments', () => {
    const named = new Set(SENT.map((one) => one.operation));
    for (const one of [
      'PATCH /repos/{owner}/{repo}/git/refs/{ref}',
      'PUT /repos/{owner}/{repo}/branches/{branch}/protection',
      'POST /repos/{owner}/{repo}/branches/{branch}/rename',
      'DELETE /repos/{owner}/{repo}/contents/{path}',
      'POST /repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies',
    ]) {
      expect(named).toContain(one);
    }
  });

  it('refuses each with the object missing, keeping nothing', { timeout: 180_000 }, async () => {
    const { daemon, name, root } = await twin();
    const made = await fetch(`${root}/user/repos`, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ name: REPO }),
    });
    expect(made.status).toBe(201);
    const collections = async () => (await fetch(`${daemon.url}/api/endpoints/${name}/collections`)).text();
    const before = await collections();
    const wrong: string[] = [];
    for (const one of SENT) {
      const answer = await fetch(`${root}${one.path}`, {
        method: one.operation.split(' ')[0],
        headers: HEADERS,
        body: JSON.stringify(one.bad.body),
      });
      const text = await answer.text();
      const expected = ANSWERS[one.operation] ?? { status: 404, body: NOT_FOUND };
      const body = text === '' ? undefined : (JSON.parse(text) as unknown);
      if (answer.status !== expected.status || JSON.stringify(body) !== JSON.stringify(expected.body)) {
        wrong.push(`${one.operation} ${one.bad.keyword} ${one.bad.param}: ${answer.status} ${text.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await collections()).toBe(before);
    console.log(`GitHub missing first (${store}): ${SENT.length} invalid bodies below objects never made`);
  });
});

describe.each(['memory', 'level'] as const)('the GitHub twin refuses the value of an object it holds (%s)', (store) => {
  const twin = sharedTwinDaemon('github', async () => store, 1);

  it('answers each invalid body below a branch, ref, file or environment held as before: not 404', async () => {
    const { root } = await twin();
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${root}${path}`, { method, headers: HEADERS, body: JSON.stringify(body) });
    const repo = `/repos/octocat/${REPO}`;
    expect((await send('POST', '/user/repos', { name: REPO })).status).toBe(201);
    const content = Buffer.from('Hello\n').toString('base64');
    expect((await send('PUT', `${repo}/contents/README.md`, { message: 'Add', content })).status).toBe(201);
    expect((await send('PUT', `${repo}/environments/prod`, {})).status).toBe(200);
    const held = heldCases();
    const wrong: string[] = [];
    for (const one of held) {
      const answer = await send(one.operation.split(' ')[0] as string, one.path, one.bad.body);
      const text = await answer.text();
      if (answer.status !== 422)
        wrong.push(`${one.operation} ${one.bad.keyword} ${one.bad.param}: ${answer.status} ${text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    expect(held.length).toBeGreaterThan(10);
    // A valid write below a branch or environment held, that the twin answers from the document: not 404.
    expect((await send('POST', `${repo}/branches/main/rename`, { new_name: 'trunk' })).status).toBe(201);
    expect((await send('POST', `${repo}/environments/prod/variables`, { name: 'V', value: 'x' })).status).toBe(201);
    console.log(`GitHub held first (${store}): ${held.length} invalid bodies below objects held refused 422`);
    // Still held, unchanged.
    expect((await send('GET', `${repo}/branches/main/protection`, undefined)).status).toBe(404);
    expect((await send('GET', `${repo}/git/refs/heads/main`, undefined)).status).toBe(200);
  });
});
