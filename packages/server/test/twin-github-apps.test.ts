// The GitHub twin's workflow runs and its App's installations (issue #73), through @octokit/rest
// against the built daemon in memory, on LevelDB, on a real redis-server and in a namespace: a
// workflow file written, dispatched (a run
// requested), read, listed and cancelled (completed), with GitHub's 404, 409 and 422; the App
// installed on a repository's owner, read, suspended, unsuspended and uninstalled; and `mockpoint
// trigger github` of `workflow_run` and `installation`, each delivery verified by @octokit/webhooks
// and holding the keys of @octokit/webhooks-examples. Every process listens on 127.0.0.1.
import { createClient } from '@mockpoint/core';
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import { describe, expect, it } from 'vitest';
import { madeRepos, QUIET_LOG } from './helpers/octokit.js';
import {
  exampleKeys,
  hookReceiver,
  type Received,
  TWIN_PLACES,
  twinAt,
  twinDaemon,
  useTwinRedis,
} from './helpers/twin.js';

const twinRedis = useTwinRedis();

const SECRET = 'It is a secret to everybody';

/** A workflow GitHub dispatches (`workflow_dispatch`), and one it does not. */
const DISPATCHABLE = Buffer.from('name: CI\non:\n  workflow_dispatch:\njobs: {}\n').toString('base64');
const PUSH_ONLY = Buffer.from('name: Push\non: push\njobs: {}\n').toString('base64');

/** What a request Octokit rejects answered: its status. */
const failed = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: { status: number }) => error.status,
  );

/** Each delivery's type (`workflow_run.requested`), headers and payload, its signature verified. */
async function opened(received: readonly Received[]) {
  const verifier = new Webhooks({ secret: SECRET });
  const out: { type: string; headers: Received['headers']; payload: Record<string, unknown> }[] = [];
  for (const { body, headers } of received) {
    expect(await verifier.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
    const payload = JSON.parse(body) as Record<string, unknown>;
    out.push({ type: [headers['x-github-event'], payload.action].filter(Boolean).join('.'), headers, payload });
  }
  return out;
}

describe.each(TWIN_PLACES)("the GitHub twin's workflow runs and installations (%s)", (place) => {
  it('dispatches a workflow file into a run, reads, lists and cancels it, telling workflow_run', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const receiver = await hookReceiver();
    try {
      const repo = { owner: 'octocat', repo: 'widgets' };
      await octokit.rest.repos.createForAuthenticatedUser({ name: repo.repo });
      await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: receiver.url, secret: SECRET },
        events: ['workflow_run'],
      });
      const write = (path: string, content: string) =>
        octokit.rest.repos.createOrUpdateFileContents({ ...repo, path, message: 'Add', content });
      const first = (await write('.github/workflows/ci.yml', DISPATCHABLE)).data.commit.sha;
      const head = (await write('.github/workflows/push.yml', PUSH_ONLY)).data.commit.sha;

      const dispatched = await octokit.rest.actions.createWorkflowDispatch({
        ...repo,
        workflow_id: 'ci.yml',
        ref: 'main',
      });
      expect(dispatched.status).toBe(204);
      const runs = await octokit.rest.actions.listWorkflowRunsForRepo(repo);
      expect(runs.data.total_count).toBe(1);
      const run = runs.data.workflow_runs[0];
      expect(run).toMatchObject({
        name: 'ci',
        event: 'workflow_dispatch',
        status: 'queued',
        conclusion: null,
        head_branch: 'main',
        run_number: 1,
        path: '.github/workflows/ci.yml@main',
        actor: { login: 'octocat' },
        repository: { full_name: 'octocat/widgets' },
      });
      // The commit `main` is at (the second write's), not the one that wrote the workflow.
      expect(run?.head_sha).toBe(head);
      expect(head).not.toBe(first);
      const id = Number(run?.id);
      expect((await octokit.rest.actions.getWorkflowRun({ ...repo, run_id: id })).data).toEqual(run);

      // With `return_run_details`: the run's id and URLs.
      const detailed = await octokit.request('POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
        ...repo,
        workflow_id: 'ci.yml',
        ref: 'main',
        return_run_details: true,
      });
      expect(detailed.status).toBe(200);
      const second = (detailed.data as { workflow_run_id: number }).workflow_run_id;
      expect(detailed.data).toEqual({
        workflow_run_id: second,
        run_url: `https://api.github.com/repos/octocat/widgets/actions/runs/${second}`,
        html_url: `https://github.com/octocat/widgets/actions/runs/${second}`,
      });

      // Cancelled: completed, `cancelled`; again: GitHub's 409.
      expect((await octokit.rest.actions.cancelWorkflowRun({ ...repo, run_id: id })).status).toBe(202);
      const done = (await octokit.rest.actions.getWorkflowRun({ ...repo, run_id: id })).data;
      expect([done.status, done.conclusion]).toEqual(['completed', 'cancelled']);
      expect(await failed(octokit.rest.actions.cancelWorkflowRun({ ...repo, run_id: id }))).toBe(409);

      // GitHub's refusals: a file missing, one without the trigger, a ref missing, a run never made.
      const dispatch = (workflow_id: string, ref: string) =>
        failed(octokit.rest.actions.createWorkflowDispatch({ ...repo, workflow_id, ref }));
      expect(await dispatch('missing.yml', 'main')).toBe(404);
      expect(await dispatch('push.yml', 'main')).toBe(422);
      expect(await dispatch('ci.yml', 'nowhere')).toBe(422);
      expect(await failed(octokit.rest.actions.getWorkflowRun({ ...repo, run_id: 999_999 }))).toBe(404);
      expect((await octokit.rest.actions.listWorkflowRunsForRepo(repo)).data.total_count).toBe(2);

      await receiver.until(4);
      const told = await opened(receiver.received);
      expect(told.map((one) => one.type).sort()).toEqual([
        'ping',
        'workflow_run.completed',
        'workflow_run.requested',
        'workflow_run.requested',
      ]);
      for (const { type, payload } of told.filter((one) => one.type !== 'ping')) {
        const keys = exampleKeys('workflow_run', type.split('.')[1]).filter((key) => key !== 'organization');
        expect(Object.keys(payload), type).toEqual(expect.arrayContaining(keys));
        expect(payload.workflow).toMatchObject({ name: 'ci', path: '.github/workflows/ci.yml', state: 'active' });
      }
      const completed = told.find((one) => one.type === 'workflow_run.completed')?.payload;
      expect(completed?.workflow_run).toMatchObject({ id, status: 'completed', conclusion: 'cancelled' });
    } finally {
      await receiver.close();
    }
  });

  it('installs the App on a repository’s owner, suspends, unsuspends and uninstalls it, telling installation', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const receiver = await hookReceiver();
    try {
      const repo = { owner: 'acme', repo: 'site' };
      const made = (await octokit.rest.repos.createInOrg({ org: repo.owner, name: repo.repo })).data;
      await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: receiver.url, secret: SECRET },
        events: ['installation'],
      });
      // Installed (the install click): on the repository's owner, that repository selected.
      const installed = await octokit.rest.apps.addRepoToInstallationForAuthenticatedUser({
        installation_id: 42,
        repository_id: made.id,
      });
      expect(installed.status).toBe(204);
      const read = (await octokit.rest.apps.getInstallation({ installation_id: 42 })).data;
      expect(read).toMatchObject({
        id: 42,
        app_id: 1,
        app_slug: 'mockpoint',
        account: { login: 'acme', type: 'Organization' },
        target_type: 'Organization',
        repository_selection: 'selected',
        suspended_at: null,
      });
      expect((await octokit.rest.apps.listInstallations()).data.map((one) => one.id)).toEqual([42]);
      const mine = await octokit.rest.apps.listInstallationsForAuthenticatedUser();
      expect([mine.data.total_count, mine.data.installations[0]?.id]).toEqual([1, 42]);
      const selected = await octokit.rest.apps.listInstallationReposForAuthenticatedUser({ installation_id: 42 });
      expect(selected.data.repositories.map((one) => one.full_name)).toEqual(['acme/site']);
      // Its last repository is not removed (uninstall it instead); a repository never made is 404.
      const last = octokit.rest.apps.removeRepoFromInstallationForAuthenticatedUser({
        installation_id: 42,
        repository_id: made.id,
      });
      expect(await failed(last)).toBe(422);
      const never = octokit.rest.apps.addRepoToInstallationForAuthenticatedUser({
        installation_id: 43,
        repository_id: 999_999,
      });
      expect(await failed(never)).toBe(404);

      await octokit.rest.apps.suspendInstallation({ installation_id: 42 });
      const suspended = (await octokit.rest.apps.getInstallation({ installation_id: 42 })).data;
      expect(suspended.suspended_by?.login).toBe('octocat');
      expect(suspended.suspended_at).not.toBeNull();
      await octokit.rest.apps.unsuspendInstallation({ installation_id: 42 });
      expect((await octokit.rest.apps.getInstallation({ installation_id: 42 })).data.suspended_at).toBeNull();
      expect((await octokit.rest.apps.deleteInstallation({ installation_id: 42 })).status).toBe(204);
      expect(await failed(octokit.rest.apps.getInstallation({ installation_id: 42 }))).toBe(404);

      await receiver.until(5);
      const told = await opened(receiver.received);
      expect(told.map((one) => one.type).sort()).toEqual([
        'installation.created',
        'installation.deleted',
        'installation.suspend',
        'installation.unsuspend',
        'ping',
      ]);
      for (const { type, headers, payload } of told.filter((one) => one.type !== 'ping')) {
        // An App's delivery: its `installation` (which exampleKeys leaves out of a repository's), no repository.
        expect(Object.keys(payload), type).toEqual(
          expect.arrayContaining([...exampleKeys('installation', type.split('.')[1]), 'installation']),
        );
        expect(payload).not.toHaveProperty('repository');
        expect(payload.installation).toMatchObject({ id: 42, app_id: 1, account: { login: 'acme' } });
        expect([
          headers['x-github-hook-installation-target-type'],
          headers['x-github-hook-installation-target-id'],
        ]).toEqual(['integration', '1']);
      }
      const created = told.find((one) => one.type === 'installation.created')?.payload;
      expect(created?.repositories).toEqual([
        { id: made.id, node_id: made.node_id, name: 'site', full_name: 'acme/site', private: false },
      ]);
    } finally {
      await receiver.close();
    }
  });
});

it('mockpoint trigger github sends workflow_run and installation, made through the twin', async () => {
  const { daemon, name, root } = await twinDaemon('github', 'memory');
  const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
  const hooks = await hookReceiver();
  try {
    const repo = { owner: 'octo', repo: 'app' };
    const events = ['workflow_run', 'installation'];
    await madeRepos(octokit, 'octo/app');
    await octokit.rest.repos.createWebhook({ ...repo, config: { url: hooks.url, secret: SECRET }, events });
    const client = createClient({ baseUrl: daemon.url });
    const asked = [
      'workflow_run.requested',
      'workflow_run.completed',
      'installation.created',
      'installation.deleted',
      'installation.suspend',
      'installation.unsuspend',
    ];
    for (const event of asked) {
      // `installation.created` once a repository: after `.deleted` uninstalled it, each is made anew.
      const sent = await client.triggerTwin(name, { event, repo: 'octo/app' });
      expect(
        sent.events.map((one) => one.type),
        event,
      ).toContain(event);
    }
    // What each trigger's calls told: requested; requested, completed; created; deleted (of the
    // installation the one before made); created (anew), suspend; unsuspend (its suspension again: nothing).
    const wanted = [
      ['ping'],
      ['workflow_run.requested'],
      ['workflow_run.requested', 'workflow_run.completed'],
      ['installation.created'],
      ['installation.deleted'],
      ['installation.created', 'installation.suspend'],
      ['installation.unsuspend'],
    ].flat();
    await hooks.until(wanted.length);
    const told = await opened(hooks.received);
    expect(told.map((one) => one.type).sort()).toEqual(wanted.sort());
    for (const { type, payload } of told.filter((one) => one.type !== 'ping')) {
      const [event = '', action] = type.split('.');
      const keys = exampleKeys(event, action).filter((key) => key !== 'organization');
      expect(Object.keys(payload), type).toEqual(expect.arrayContaining(keys));
      if (event === 'installation') expect(payload.installation).toMatchObject({ app_id: 1 });
    }
  } finally {
    await hooks.close();
  }
});
