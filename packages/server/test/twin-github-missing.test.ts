// A write naming, by its path, an object of a GitHub repository that the twin does not hold (#84):
// on a fresh twin (`unseen: "missing"`) it is refused as GitHub refuses it — `404 {"message":"Not
// Found","documentation_url":…}` — and nothing is kept. The cases are generated from GitHub's
// document (read through the twins package's loader): every `POST`, `PUT`, `PATCH` and `DELETE`
// under `/repos/{owner}/{repo}/…` whose path holds another parameter (`issue_number`, `hook_id`,
// a label's `name`, `branch`, `ref`, …), sent on a repository made with `POST /user/repos` with a
// value it never made and a minimal valid body of the operation's required fields. A write that
// makes what its path names (`PUT …/secrets/{secret_name}`, `…/create-or-update-…`) is left out;
// where GitHub's answer is another, the case's own expectation says which and why. Against the
// built daemon on memory and LevelDB; every process listens on 127.0.0.1. The operations it covers
// are the parity ledger's evidence (docs/parity/github-missing-references.json, checked here;
// MOCKPOINT_WRITE_EVIDENCE=1 rewrites it).
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANSWERS, CASES, NOT_FOUND } from './helpers/github-missing-cases.js';
import { sharedTwinDaemon } from './helpers/twin.js';

/** The parity ledger's evidence this test writes (with MOCKPOINT_WRITE_EVIDENCE=1) and checks. */
const EVIDENCE = new URL('../../../docs/parity/github-missing-references.json', import.meta.url);
const HEADERS = { authorization: 'Bearer ghp_missing84', 'content-type': 'application/json' };

describe.each(['memory', 'level'] as const)(
  'the GitHub twin refuses a write below what it does not hold (%s)',
  (store) => {
    const twin = sharedTwinDaemon('github', async () => store, 1);

    it('finds the cases in the document, the issue’s among them', () => {
      const named = CASES.sent.map((one) => one.operation);
      for (const one of [
        'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
        'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
        'PUT /repos/{owner}/{repo}/issues/{issue_number}/lock',
        'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}',
        'PATCH /repos/{owner}/{repo}/labels/{name}',
        'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge',
        'PATCH /repos/{owner}/{repo}/hooks/{hook_id}',
        'PATCH /repos/{owner}/{repo}/releases/{release_id}',
        'PUT /repos/{owner}/{repo}/branches/{branch}/protection',
        'PATCH /repos/{owner}/{repo}/git/refs/{ref}',
      ]) {
        expect(named).toContain(one);
      }
      expect(CASES.made.map((one) => one.operation).sort()).toEqual([
        'PUT /repos/{owner}/{repo}/actions/secrets/{secret_name}',
        'PUT /repos/{owner}/{repo}/agents/secrets/{secret_name}',
        'PUT /repos/{owner}/{repo}/codespaces/secrets/{secret_name}',
        'PUT /repos/{owner}/{repo}/collaborators/{username}',
        'PUT /repos/{owner}/{repo}/contents/{path}',
        'PUT /repos/{owner}/{repo}/dependabot/secrets/{secret_name}',
        'PUT /repos/{owner}/{repo}/environments/{environment_name}',
      ]);
    });

    it('refuses each as GitHub does, keeping nothing', { timeout: 120_000 }, async () => {
      const { daemon, name, root } = await twin();
      const made = await fetch(`${root}/user/repos`, {
        method: 'POST',
        headers: HEADERS,
        body: '{"name":"missing84"}',
      });
      expect(made.status).toBe(201);
      const collections = async () => (await fetch(`${daemon.url}/api/endpoints/${name}/collections`)).text();
      const before = await collections();
      const wrong: string[] = [];
      for (const one of CASES.sent) {
        const answer = await fetch(`${root}${one.path}`, {
          method: one.operation.split(' ')[0],
          headers: HEADERS,
          body: one.body === undefined ? undefined : JSON.stringify(one.body),
        });
        const text = await answer.text();
        const expected = ANSWERS[one.operation] ?? { status: 404, body: NOT_FOUND };
        const body = text === '' ? undefined : (JSON.parse(text) as unknown);
        if (answer.status !== expected.status || JSON.stringify(body) !== JSON.stringify(expected.body)) {
          wrong.push(`${one.operation} ${JSON.stringify(one.body)}: ${answer.status} ${text.slice(0, 160)}`);
        }
      }
      expect(wrong).toEqual([]);
      // Nothing kept: the twin's collections as they were (the repository only).
      expect(await collections()).toBe(before);
      // The parity ledger's evidence (scripts/parity-ledger.mjs): these operations, as this test sent them.
      const evidence = `${JSON.stringify(
        {
          provider: 'github',
          source: `twin-github-missing.test.ts: each write below an object never made refused as GitHub refuses it, nothing kept (${CASES.sent.length} passing)`,
          operations: CASES.sent.map((one) => one.operation).sort(),
        },
        null,
        2,
      )}\n`;
      if (process.env.MOCKPOINT_WRITE_EVIDENCE === '1') writeFileSync(EVIDENCE, evidence);
      expect(readFileSync(EVIDENCE, 'utf8'), 'stale: MOCKPOINT_WRITE_EVIDENCE=1 rewrites it').toBe(evidence);
      console.log(
        `GitHub missing references (${store}): ${CASES.sent.length} writes refused, ${CASES.made.length} that make what they name left out`,
      );
    });
  },
);
