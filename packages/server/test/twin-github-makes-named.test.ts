// The writes below a repository that make what their path names (#84: left out of
// twin-github-missing.test.ts): a secret of Actions, Agents, Codespaces or Dependabot, a
// collaborator, a file, an environment. Generated from GitHub's document (helpers/
// github-missing-cases.ts's `made`, each with its minimal valid body), each is sent on a repository
// made with `POST /user/repos`: it succeeds as GitHub answers it (`201` created, or `200` where the
// document answers no `201`), what it made is read back (a `GET` of the item, a collaborator's
// invitation in `…/invitations`), and sent again it updates (`204`, or `200` where the document
// answers no `204`). Against the built daemon on memory and LevelDB; every process listens on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { CASES, DOC, REPO } from './helpers/github-missing-cases.js';
import { sharedTwinDaemon, twinSender } from './helpers/twin.js';

const HEADERS = { authorization: 'Bearer ghp_made84', 'content-type': 'application/json' };

/** Whether the document answers `method template` with `status`. */
function answers(template: string, method: string, status: string): boolean {
  const responses = (DOC.paths[template]?.[method] as { responses?: Record<string, unknown> } | undefined)?.responses;
  return responses !== undefined && status in responses;
}

/** The member of what was made that names it, as its read answers it. */
const NAMED_BY: Record<string, string> = { secret_name: 'name', environment_name: 'name', path: 'path' };

describe.each(['memory', 'level'] as const)('the GitHub twin makes what a write names (%s)', (store) => {
  const twin = sharedTwinDaemon('github', async () => store, 1);

  it('finds the 7 writes in the document', () => {
    expect(CASES.made).toHaveLength(7);
  });

  it('makes each, reads it back and updates it as GitHub answers', { timeout: 60_000 }, async () => {
    const { root } = await twin();
    const send = twinSender(root, HEADERS);
    expect((await send('POST', '/user/repos', { name: REPO })).status).toBe(201);
    const wrong: string[] = [];
    for (const one of CASES.made) {
      const template = one.operation.split(' ')[1] as string;
      const param = template.match(/\{([^}]+)\}$/)?.[1] as string;
      const name = decodeURIComponent(one.path.split('/').at(-1) as string);
      const made = await send('PUT', one.path, one.body);
      const created = answers(template, 'put', '201') ? 201 : 200;
      if (made.status !== created) wrong.push(`${one.operation}: made ${made.status} ${JSON.stringify(made.body)}`);
      if (param === 'username') {
        // An invitation until the invitee accepts it: listed among the repository's.
        const invited = made.body?.invitee as { login?: string } | undefined;
        if (invited?.login !== name) wrong.push(`${one.operation}: invitee ${JSON.stringify(made.body)}`);
        const listed = await send('GET', `/repos/octocat/${REPO}/invitations`);
        const logins = ((listed.body ?? []) as unknown as { invitee: { login: string } }[]).map((i) => i.invitee.login);
        if (!logins.includes(name)) wrong.push(`${one.operation}: invitations ${JSON.stringify(listed.body)}`);
        continue;
      }
      const read = await send('GET', one.path);
      const member = NAMED_BY[param] ?? 'name';
      // A secret's name as GitHub shows it: upper case.
      const named = param === 'secret_name' ? name.toUpperCase() : name;
      if (read.status !== 200 || read.body?.[member] !== named) {
        wrong.push(`${one.operation}: read ${read.status} ${JSON.stringify(read.body).slice(0, 200)}`);
      }
      // Again: an update (a file's needs the blob it replaces).
      const content = made.body?.content as { sha?: string } | undefined;
      const again = param === 'path' ? { ...(one.body as object), sha: content?.sha } : one.body;
      const updated = await send('PUT', one.path, again);
      const expected = answers(template, 'put', '204') ? 204 : 200;
      if (updated.status !== expected)
        wrong.push(`${one.operation}: again ${updated.status} ${JSON.stringify(updated.body)}`);
    }
    expect(wrong).toEqual([]);
  });
});
