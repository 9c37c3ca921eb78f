// Every operation below a GitHub repository the twin does not hold (#84): on a fresh twin
// (`unseen: "missing"`), each of GitHub's document's operations at or below
// `/repos/{owner}/{repo}` — reads and writes, whatever else its path names and whatever its body —
// sent to a repository never made is GitHub's `404 Not Found` (the repository resolved before any
// value sent is read), and nothing is kept: not the repository, nor what a write sent. Generated
// from the document (read through the twins package's loader), against the built daemon on memory
// and LevelDB; every process listens on 127.0.0.1. The writes it covers are the parity ledger's
// evidence (docs/parity/github-missing-repository.json, checked here; MOCKPOINT_WRITE_EVIDENCE=1
// rewrites it).
import { readFileSync, writeFileSync } from 'node:fs';
import { load } from '@mockpoint/twins';
import { describe, expect, it } from 'vitest';
import { sharedTwinDaemon } from './helpers/twin.js';

const { document } = await load('github');
const PATHS = (document as unknown as { paths: Record<string, Record<string, unknown>> }).paths;

const EVIDENCE = new URL('../../../docs/parity/github-missing-repository.json', import.meta.url);
const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' };
const HEADERS = { authorization: 'Bearer ghp_norepo84', 'content-type': 'application/json' };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Each operation at or below the repository, its path's other parameters given plain values. */
const CASES = Object.entries(PATHS).flatMap(([template, item]) =>
  template === '/repos/{owner}/{repo}' || template.startsWith('/repos/{owner}/{repo}/')
    ? METHODS.filter((method) => item[method] !== undefined).map((method) => ({
        operation: `${method.toUpperCase()} ${template}`,
        path: template
          .replace('{owner}', 'octo')
          .replace('{repo}', 'never84')
          .replace(/\{([^}]+)\}/g, (_, name: string) => (/(number|_id)$/.test(name) ? '1' : `${name}-1`)),
      }))
    : [],
);
const WRITES = CASES.filter((one) => !one.operation.startsWith('GET ')).map((one) => one.operation);

describe.each(['memory', 'level'] as const)('the GitHub twin below a repository never made (%s)', (store) => {
  const twin = sharedTwinDaemon('github', async () => store, 1);

  it("answers every operation GitHub's 404, keeping nothing", { timeout: 120_000 }, async () => {
    expect(CASES.length).toBeGreaterThan(500);
    expect(WRITES).toContain('POST /repos/{owner}/{repo}/issues');
    const { daemon, name, root } = await twin();
    const collections = async () => (await fetch(`${daemon.url}/api/endpoints/${name}/collections`)).text();
    const before = await collections();
    const wrong: string[] = [];
    for (const one of CASES) {
      const method = one.operation.split(' ')[0] as string;
      const answer = await fetch(`${root}${one.path}`, {
        method,
        headers: HEADERS,
        // An empty body: the missing repository is answered before what a body lacks.
        body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      });
      const text = await answer.text();
      if (answer.status !== 404 || text !== JSON.stringify(NOT_FOUND)) {
        wrong.push(`${one.operation}: ${answer.status} ${text.slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await collections()).toBe(before);
    expect((await fetch(`${root}/repos/octo/never84`, { headers: HEADERS })).status).toBe(404);
    expect(await (await fetch(`${root}/orgs/octo/repos`, { headers: HEADERS })).json()).toEqual([]);
    const evidence = `${JSON.stringify(
      {
        provider: 'github',
        source: `twin-github-missing-repo.test.ts: each write below a repository never made answered GitHub's 404, nothing kept (${WRITES.length} passing)`,
        operations: [...WRITES].sort(),
      },
      null,
      2,
    )}\n`;
    if (process.env.MOCKPOINT_WRITE_EVIDENCE === '1') writeFileSync(EVIDENCE, evidence);
    expect(readFileSync(EVIDENCE, 'utf8'), 'stale: MOCKPOINT_WRITE_EVIDENCE=1 rewrites it').toBe(evidence);
    console.log(`GitHub below a repository never made (${store}): ${CASES.length} operations, ${WRITES.length} writes`);
  });
});
