// Every operation below a GitHub repository or organization the twin does not hold (#84): on a
// fresh twin (`unseen: "missing"`), each of GitHub's document's operations at or below
// `/repos/{owner}/{repo}`, and each below `/orgs/{org}` — reads and writes, whatever else its path
// names and whatever its body — sent to a repository never made, or an organization the twin holds
// no repository of, is GitHub's `404 Not Found` (the owner resolved before any value sent is read),
// and nothing is kept: not the repository or organization, nor what a write sent. `POST
// /orgs/{org}/repos`, which makes the organization, is left out. Generated from the document (read
// through the twins package's loader), against the built daemon on memory and LevelDB; every
// process listens on 127.0.0.1. The writes each covers are the parity ledger's evidence
// (docs/parity/github-missing-repository.json and github-missing-organization.json, checked here;
// MOCKPOINT_WRITE_EVIDENCE=1 rewrites them).
import { readFileSync, writeFileSync } from 'node:fs';
import { load } from '@mockpoint/twins';
import { describe, expect, it } from 'vitest';
import { sharedTwinDaemon } from './helpers/twin.js';

const { document } = await load('github');
const PATHS = (document as unknown as { paths: Record<string, Record<string, unknown>> }).paths;

const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' };
const HEADERS = { authorization: 'Bearer ghp_noowner84', 'content-type': 'application/json' };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The two owners of what GitHub keeps: where their operations start, the values they are sent, what each is called. */
const OWNERS = [
  {
    kind: 'repository',
    a: 'a repository',
    at: '/repos/{owner}/{repo}',
    values: { owner: 'octo', repo: 'never84' },
    evidence: 'github-missing-repository',
    least: 500,
    held: '/repos/octo/never84',
  },
  {
    kind: 'organization',
    a: 'an organization',
    at: '/orgs/{org}',
    values: { org: 'never-org84' },
    evidence: 'github-missing-organization',
    least: 350,
    held: '/orgs/never-org84',
  },
] as const;

/** Each operation below `at` (the repository's own too), its path's other parameters given plain values. */
function casesOf(owner: (typeof OWNERS)[number]) {
  return Object.entries(PATHS).flatMap(([template, item]) =>
    (template === owner.at && owner.kind === 'repository') || template.startsWith(`${owner.at}/`)
      ? METHODS.filter((method) => item[method] !== undefined)
          .map((method) => ({
            operation: `${method.toUpperCase()} ${template}`,
            path: template.replace(
              /\{([^}]+)\}/g,
              (_, name: string) =>
                (owner.values as Record<string, string>)[name] ?? (/(number|_id)$/.test(name) ? '1' : `${name}-1`),
            ),
          }))
          .filter((one) => one.operation !== 'POST /orgs/{org}/repos')
      : [],
  );
}

describe.each(['memory', 'level'] as const)('the GitHub twin below an owner never made (%s)', (store) => {
  const twin = sharedTwinDaemon('github', async () => store, 2);

  it.each(OWNERS)(
    "answers every operation below $a never made GitHub's 404, keeping nothing",
    { timeout: 120_000 },
    async (owner) => {
      const cases = casesOf(owner);
      const writes = cases.filter((one) => !one.operation.startsWith('GET ')).map((one) => one.operation);
      expect(cases.length).toBeGreaterThan(owner.least);
      expect(writes).toContain(
        owner.kind === 'repository' ? 'POST /repos/{owner}/{repo}/issues' : 'POST /orgs/{org}/hooks',
      );
      const { daemon, name, root } = await twin();
      const collections = async () => (await fetch(`${daemon.url}/api/endpoints/${name}/collections`)).text();
      const before = await collections();
      const wrong: string[] = [];
      for (const one of cases) {
        const method = one.operation.split(' ')[0] as string;
        const answer = await fetch(`${root}${one.path}`, {
          method,
          headers: HEADERS,
          // An empty body: the missing owner is answered before what a body lacks.
          body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
        });
        const text = await answer.text();
        if (answer.status !== 404 || text !== JSON.stringify(NOT_FOUND)) {
          wrong.push(`${one.operation}: ${answer.status} ${text.slice(0, 160)}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(await collections()).toBe(before);
      expect((await fetch(`${root}${owner.held}`, { headers: HEADERS })).status).toBe(404);
      const file = new URL(`../../../docs/parity/${owner.evidence}.json`, import.meta.url);
      const evidence = `${JSON.stringify(
        {
          provider: 'github',
          source: `twin-github-missing-owner.test.ts: each write below ${owner.a} never made answered GitHub's 404, nothing kept (${writes.length} passing)`,
          operations: [...writes].sort(),
        },
        null,
        2,
      )}\n`;
      if (process.env.MOCKPOINT_WRITE_EVIDENCE === '1') writeFileSync(file, evidence);
      expect(readFileSync(file, 'utf8'), 'stale: MOCKPOINT_WRITE_EVIDENCE=1 rewrites it').toBe(evidence);
      console.log(`GitHub below ${owner.a} never made (${store}): ${cases.length} operations, ${writes.length} writes`);
    },
  );
});
