// The GitHub twin's collaborators and repository invitations (issue #73), through @octokit/rest
// against the built daemon in memory, on LevelDB, on a real redis-server and in a namespace: an invitation made, changed, listed, accepted
// (a collaborator then, `member.added` to the repository's hook, verified by @octokit/webhooks with
// the keys of @octokit/webhooks-examples) or withdrawn; permissions read; a collaborator removed
// (`member.removed`); GitHub's 404 and 422 where it answers them. Every process listens on 127.0.0.1.
import { createClient } from '@mockpoint/core';
import { Octokit } from '@octokit/rest';
import { Webhooks } from '@octokit/webhooks';
import { describe, expect, it } from 'vitest';
import { GITHUB_NOT_FOUND, madeRepos, QUIET_LOG, rejection } from './helpers/octokit.js';
import { exampleKeys, hookReceiver, TWIN_PLACES, twinAt, twinDaemon, useTwinRedis } from './helpers/twin.js';

const twinRedis = useTwinRedis();

const SECRET = 'It is a secret to everybody';

/** What a request Octokit rejects answered: its status. */
const failed = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: { status: number }) => error.status,
  );

describe.each(TWIN_PLACES)("the GitHub twin's collaborators (%s)", (place) => {
  it('invites, changes, accepts and removes a collaborator, with member events to the hook', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const receiver = await hookReceiver();
    try {
      // An organization's repository (a personal one's collaborators are all `write`: below).
      const repo = { owner: 'acme', repo: 'widgets' };
      await octokit.rest.repos.createInOrg({ org: 'acme', name: repo.repo, private: true });
      await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: receiver.url, secret: SECRET },
        events: ['member'],
      });

      // Invited: an invitation to this repository (not the document's example), `write` for push.
      const invited = await octokit.rest.repos.addCollaborator({ ...repo, username: 'alice', permission: 'push' });
      expect(invited.status).toBe(201);
      expect(invited.data).toMatchObject({
        id: 1,
        permissions: 'write',
        invitee: { login: 'alice' },
        inviter: { login: 'octocat' },
        repository: { full_name: 'acme/widgets', private: true },
        expired: false,
      });
      // Again while pending: the same invitation, its permission changed.
      const again = await octokit.rest.repos.addCollaborator({ ...repo, username: 'alice', permission: 'maintain' });
      expect([again.status, again.data?.id, again.data?.permissions]).toEqual([201, 1, 'maintain']);
      const pending = await octokit.rest.repos.listInvitations(repo);
      expect(pending.data.map((one) => [one.id, one.invitee?.login, one.permissions])).toEqual([
        [1, 'alice', 'maintain'],
      ]);
      const changed = await octokit.rest.repos.updateInvitation({ ...repo, invitation_id: 1, permissions: 'write' });
      expect(changed.data.permissions).toBe('write');
      // Not yet a collaborator: only the owner, and `none` for alice.
      expect((await octokit.rest.repos.listCollaborators(repo)).data.map((one) => one.login)).toEqual(['octocat']);
      expect(await failed(octokit.rest.repos.checkCollaborator({ ...repo, username: 'alice' }))).toBe(404);
      const before = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: 'alice' });
      expect(before.data.permission).toBe('none');

      // Accepted (the twin's one user accepts any invitation): a collaborator with its permission.
      const mine = await octokit.rest.repos.listInvitationsForAuthenticatedUser();
      expect(mine.data.map((one) => one.id)).toEqual([1]);
      const accepted = await octokit.rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: 1 });
      expect(accepted.status).toBe(204);
      expect((await octokit.rest.repos.listInvitations(repo)).data).toEqual([]);
      const listed = await octokit.rest.repos.listCollaborators(repo);
      expect(
        listed.data.map((one) => [one.login, one.role_name, one.permissions?.push, one.permissions?.admin]),
      ).toEqual([
        ['octocat', 'admin', true, true],
        ['alice', 'write', true, false],
      ]);
      const admins = await octokit.rest.repos.listCollaborators({ ...repo, permission: 'admin' });
      expect(admins.data.map((one) => one.login)).toEqual(['octocat']);
      expect((await octokit.rest.repos.checkCollaborator({ ...repo, username: 'ALICE' })).status).toBe(204);
      const level = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: 'alice' });
      expect([level.data.permission, level.data.role_name, level.data.user?.login]).toEqual([
        'write',
        'write',
        'alice',
      ]);
      // A collaborator's permission changed in place: 204, no invitation.
      const promoted = await octokit.rest.repos.addCollaborator({ ...repo, username: 'alice', permission: 'admin' });
      expect(promoted.status).toBe(204);
      expect(
        (await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: 'alice' })).data.permission,
      ).toBe('admin');

      // Removed: no longer listed, member.removed.
      expect((await octokit.rest.repos.removeCollaborator({ ...repo, username: 'alice' })).status).toBe(204);
      expect((await octokit.rest.repos.listCollaborators(repo)).data.map((one) => one.login)).toEqual(['octocat']);

      // An invitation withdrawn and one declined: gone; the next is numbered on.
      const bob = await octokit.rest.repos.addCollaborator({ ...repo, username: 'bob' });
      expect(bob.data?.id).toBe(2);
      expect((await octokit.rest.repos.deleteInvitation({ ...repo, invitation_id: 2 })).status).toBe(204);
      const carol = await octokit.rest.repos.addCollaborator({ ...repo, username: 'carol', permission: 'pull' });
      expect([carol.data?.id, carol.data?.permissions]).toEqual([3, 'read']);
      await octokit.rest.repos.declineInvitationForAuthenticatedUser({ invitation_id: 3 });
      expect((await octokit.rest.repos.listInvitations(repo)).data).toEqual([]);
      expect(await failed(octokit.rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: 3 }))).toBe(404);

      // An organization's repository: its admin is the twin's user, who made it, not the organization.
      await octokit.rest.repos.createInOrg({ org: 'acme', name: 'tools' });
      const orgs = await octokit.rest.repos.listCollaborators({ owner: 'acme', repo: 'tools' });
      expect(orgs.data.map((one) => [one.login, one.type, one.role_name])).toEqual([['octocat', 'User', 'admin']]);

      // GitHub's refusals: the owner of a personal repository, a permission it does not take, a login it never makes.
      await octokit.rest.repos.createForAuthenticatedUser({ name: 'mine' });
      const owner = octokit.rest.repos.addCollaborator({ owner: 'octocat', repo: 'mine', username: 'octocat' });
      expect(await failed(owner)).toBe(422);
      const wrong = octokit.request('PUT /repos/{owner}/{repo}/collaborators/{username}', {
        ...repo,
        username: 'dave',
        permission: 'everything',
      });
      expect(await failed(wrong)).toBe(422);
      expect(await failed(octokit.rest.repos.addCollaborator({ ...repo, username: '-nope-' }))).toBe(404);
      expect(await failed(octokit.rest.repos.updateInvitation({ ...repo, invitation_id: 99 }))).toBe(404);

      // The hook: its ping, member.added (with the permission given), member.removed, each verified.
      await receiver.until(3);
      const verifier = new Webhooks({ secret: SECRET });
      const events = [];
      for (const { body, headers } of receiver.received) {
        expect(await verifier.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
        const payload = JSON.parse(body) as Record<string, unknown>;
        events.push({ type: [headers['x-github-event'], payload.action].filter(Boolean).join('.'), payload });
      }
      // Sent several at a time, they may arrive in any order (as GitHub's may): each once.
      expect(events.map((one) => one.type).sort()).toEqual(['member.added', 'member.removed', 'ping']);
      const added = events.find((one) => one.type === 'member.added')?.payload ?? {};
      expect(added).toMatchObject({
        member: { login: 'alice' },
        changes: { permission: { to: 'write' }, role_name: { to: 'write' } },
        repository: { full_name: 'acme/widgets' },
        sender: { login: 'octocat' },
      });
      expect(Object.keys(added)).toEqual(expect.arrayContaining(exampleKeys('member', 'added')));
    } finally {
      await receiver.close();
    }
  });
});

describe.each(TWIN_PLACES)("the GitHub twin's collaborators by affiliation (%s)", (place) => {
  it("gives a personal repository's collaborators write whatever permission is sent, and lists by affiliation", async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const mine = { owner: 'octocat', repo: 'notes' };
    const org = { owner: 'acme', repo: 'site' };
    await octokit.rest.repos.createForAuthenticatedUser({ name: mine.repo });
    await octokit.rest.repos.createInOrg({ org: org.owner, name: org.repo });

    // A personal repository: `permission` ("only valid on organization-owned repositories") is not
    // read, not even refused: the invitation, its change and the collaborator are all `write`.
    const invited = await octokit.rest.repos.addCollaborator({ ...mine, username: 'alice', permission: 'admin' });
    expect([invited.status, invited.data?.permissions]).toEqual([201, 'write']);
    const odd = octokit.request('PUT /repos/{owner}/{repo}/collaborators/{username}', {
      ...mine,
      username: 'bob',
      permission: 'everything',
    });
    expect(await failed(odd)).toBe('answered');
    const changed = await octokit.rest.repos.updateInvitation({
      ...mine,
      invitation_id: Number(invited.data?.id),
      permissions: 'admin',
    });
    expect(changed.data.permissions).toBe('write');
    await octokit.rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: Number(invited.data?.id) });
    const level = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...mine, username: 'alice' });
    expect([level.data.permission, level.data.role_name]).toEqual(['write', 'write']);
    expect((await octokit.rest.repos.addCollaborator({ ...mine, username: 'alice', permission: 'admin' })).status).toBe(
      204,
    );
    expect(
      (await octokit.rest.repos.getCollaboratorPermissionLevel({ ...mine, username: 'alice' })).data.permission,
    ).toBe('write');

    // An organization's: the permission sent, carol an outside collaborator.
    const carol = await octokit.rest.repos.addCollaborator({ ...org, username: 'carol', permission: 'maintain' });
    expect(carol.data?.permissions).toBe('maintain');
    await octokit.rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: Number(carol.data?.id) });

    const logins = async (repo: typeof mine, affiliation?: 'all' | 'direct' | 'outside') =>
      (await octokit.rest.repos.listCollaborators({ ...repo, ...(affiliation ? { affiliation } : {}) })).data.map(
        (one) => [one.login, one.role_name],
      );
    // `all` by default; a personal repository's owner and collaborators are direct, none outside.
    expect(await logins(mine)).toEqual([
      ['octocat', 'admin'],
      ['alice', 'write'],
    ]);
    expect(await logins(mine, 'all')).toEqual(await logins(mine));
    expect(await logins(mine, 'direct')).toEqual(await logins(mine));
    expect(await logins(mine, 'outside')).toEqual([]);
    // An organization's: its admin through the organization, carol directly and from outside it.
    expect(await logins(org)).toEqual([
      ['octocat', 'admin'],
      ['carol', 'maintain'],
    ]);
    expect(await logins(org, 'direct')).toEqual([['carol', 'maintain']]);
    expect(await logins(org, 'outside')).toEqual([['carol', 'maintain']]);
    const wrong = octokit.request('GET /repos/{owner}/{repo}/collaborators', {
      ...org,
      affiliation: 'friends' as 'all',
    });
    expect(await failed(wrong)).toBe(422);
  });
});

it('mockpoint trigger github sends member.added and member.removed, made through the twin', async () => {
  const { daemon, name, root } = await twinDaemon('github', 'memory');
  const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: root, log: QUIET_LOG });
  const hooks = await hookReceiver();
  try {
    const repo = { owner: 'octo', repo: 'app' };
    await madeRepos(octokit, 'octo/app');
    await octokit.rest.repos.createWebhook({ ...repo, config: { url: hooks.url, secret: SECRET }, events: ['member'] });
    const client = createClient({ baseUrl: daemon.url });
    for (const event of ['member.added', 'member.removed']) {
      const sent = await client.triggerTwin(name, { event, repo: 'octo/app' });
      expect(
        sent.events.map((one) => one.type),
        event,
      ).toContain(event);
    }
    await hooks.until(4);
    const verifier = new Webhooks({ secret: SECRET });
    const types = [];
    for (const { body, headers } of hooks.received) {
      expect(await verifier.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
      const payload = JSON.parse(body) as Record<string, unknown>;
      types.push([headers['x-github-event'], payload.action].filter(Boolean).join('.'));
      if (payload.action !== undefined) {
        expect(String((payload.member as { login: string }).login)).toMatch(/^trigger-[a-z0-9]{6}$/);
      }
    }
    expect(types.sort()).toEqual(['member.added', 'member.added', 'member.removed', 'ping']);
    // The collaborators the triggers made: the first stays, the second was removed. octo/app was made
    // by the twin's user in the organization `octo`: that user is listed as its admin.
    const listed = (await octokit.rest.repos.listCollaborators(repo)).data;
    expect(listed.map((one) => one.role_name)).toEqual(['admin', 'write']);
    expect(listed[0]?.login).toBe('octocat');
  } finally {
    await hooks.close();
  }
});

describe.each(TWIN_PLACES)("the GitHub twin's assignees (%s)", (place) => {
  it('lists and checks who can be assigned, adds and removes assignees as users, with assigned events', async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const receiver = await hookReceiver();
    try {
      const repo = { owner: 'acme', repo: 'tracker' };
      await octokit.rest.repos.createInOrg({ org: 'acme', name: repo.repo });
      await octokit.rest.repos.createWebhook({
        ...repo,
        config: { url: receiver.url, secret: SECRET },
        events: ['issues', 'pull_request'],
      });
      const logins = (users: readonly ({ login: string } | null)[] | null | undefined) =>
        (users ?? []).map((user) => user?.login);
      // An organization's repository: its admin (the twin's user, who made it), not the organization.
      expect(logins((await octokit.rest.issues.listAssignees(repo)).data)).toEqual(['octocat']);
      expect((await octokit.rest.issues.checkUserCanBeAssigned({ ...repo, assignee: 'octocat' })).status).toBe(204);
      expect(await failed(octokit.rest.issues.checkUserCanBeAssigned({ ...repo, assignee: 'alice' }))).toBe(404);
      expect(await failed(octokit.rest.issues.checkUserCanBeAssigned({ ...repo, assignee: 'acme' }))).toBe(404);
      // A collaborator (the invitation accepted) can be assigned; one only invited cannot.
      const invited = await octokit.rest.repos.addCollaborator({ ...repo, username: 'alice' });
      await octokit.rest.repos.addCollaborator({ ...repo, username: 'bob' });
      await octokit.rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: Number(invited.data?.id) });
      const assignable = await octokit.paginate(octokit.rest.issues.listAssignees, { ...repo, per_page: 1 });
      expect(logins(assignable)).toEqual(['octocat', 'alice']);
      expect((await octokit.rest.issues.checkUserCanBeAssigned({ ...repo, assignee: 'alice' })).status).toBe(204);
      expect(await failed(octokit.rest.issues.checkUserCanBeAssigned({ ...repo, assignee: 'bob' }))).toBe(404);

      const issue = (await octokit.rest.issues.create({ ...repo, title: 'Triage' })).data;
      const added = await octokit.rest.issues.addAssignees({
        ...repo,
        issue_number: issue.number,
        assignees: ['alice', 'bob', 'octocat'],
      });
      // User objects as `user` is; bob, who cannot be assigned, left out as GitHub leaves him.
      expect(added.status).toBe(201);
      expect(added.data).toMatchObject({ number: issue.number, title: 'Triage', assignee: { login: 'alice' } });
      expect(added.data.assignees?.map((user) => Object.keys(user).sort())[0]).toEqual(
        Object.keys(issue.user ?? {}).sort(),
      );
      expect(logins(added.data.assignees)).toEqual(['alice', 'octocat']);
      expect(
        (await octokit.rest.issues.checkUserCanBeAssignedToIssue({ ...repo, issue_number: 1, assignee: 'alice' }))
          .status,
      ).toBe(204);
      expect(
        await failed(
          octokit.rest.issues.checkUserCanBeAssignedToIssue({ ...repo, issue_number: 9, assignee: 'alice' }),
        ),
      ).toBe(404);
      const removed = await octokit.rest.issues.removeAssignees({ ...repo, issue_number: 1, assignees: ['alice'] });
      expect([
        removed.status,
        removed.data.number,
        logins(removed.data.assignees),
        removed.data.assignee?.login,
      ]).toEqual([200, 1, ['octocat'], 'octocat']);
      expect(logins((await octokit.rest.issues.get({ ...repo, issue_number: 1 })).data.assignees)).toEqual(['octocat']);
      // A pull request's, through its issue: the pull request's own assignees.
      const pull = (await octokit.rest.pulls.create({ ...repo, title: 'Fix', head: 'fix', base: 'main' })).data;
      const onPull = await octokit.rest.issues.addAssignees({
        ...repo,
        issue_number: pull.number,
        assignees: ['alice'],
      });
      expect(onPull.data.pull_request?.url).toBe(pull.url);
      expect(logins((await octokit.rest.pulls.get({ ...repo, pull_number: pull.number })).data.assignees)).toEqual([
        'alice',
      ]);
      // An issue the twin does not hold: GitHub's 404, nothing made.
      expect(await failed(octokit.rest.issues.addAssignees({ ...repo, issue_number: 9, assignees: ['alice'] }))).toBe(
        404,
      );

      // opened ×2, assigned (alice first), unassigned (alice), the pull request's assigned.
      await receiver.until(6);
      const webhooks = new Webhooks({ secret: SECRET });
      const seen: string[] = [];
      for (const { body, headers } of receiver.received) {
        expect(await webhooks.verify(body, String(headers['x-hub-signature-256']))).toBe(true);
        const payload = JSON.parse(body) as { action?: string; assignee?: { login: string } };
        const type = `${String(headers['x-github-event'])}.${payload.action ?? ''}`;
        seen.push(payload.assignee === undefined ? type : `${type} ${payload.assignee.login}`);
      }
      expect(seen.sort()).toEqual(
        [
          'ping.',
          'issues.opened',
          'pull_request.opened',
          'issues.assigned alice',
          'issues.unassigned alice',
          'pull_request.assigned alice',
        ].sort(),
      );

      // A create or an update naming one who cannot be assigned: 422, nothing made or changed.
      const unassignable = [
        422,
        {
          message: 'Validation Failed',
          errors: [{ resource: 'Issue', field: 'assignees', code: 'invalid', value: 'bob' }],
          documentation_url: 'https://docs.github.com/rest',
        },
      ];
      expect(
        await rejection(octokit.rest.issues.create({ ...repo, title: 'Refused', assignees: ['alice', 'bob'] })),
      ).toEqual(unassignable);
      expect((await octokit.rest.issues.listForRepo({ ...repo, state: 'all' })).data.length).toBe(2);
      for (const issue_number of [1, pull.number]) {
        expect(await rejection(octokit.rest.issues.update({ ...repo, issue_number, assignees: ['bob'] }))).toEqual(
          unassignable,
        );
      }
      expect(logins((await octokit.rest.issues.get({ ...repo, issue_number: 1 })).data.assignees)).toEqual(['octocat']);
      expect(await failed(octokit.rest.issues.update({ ...repo, issue_number: 9, assignees: ['bob'] }))).toBe(404);
      // One who can be, any case: one user, one id, whichever list shows the login.
      const made = (await octokit.rest.issues.create({ ...repo, title: 'Taken', assignees: ['Alice'] })).data;
      const collaborator = (await octokit.rest.repos.listCollaborators(repo)).data.find(
        (user) => user.login === 'alice',
      );
      const assignee = (await octokit.rest.issues.listAssignees(repo)).data.find((user) => user.login === 'alice');
      expect(collaborator?.id).toBeGreaterThan(0);
      expect([made.assignee?.id, assignee?.id]).toEqual([collaborator?.id, collaborator?.id]);
      const moved = await octokit.rest.issues.update({ ...repo, issue_number: made.number, assignees: ['octocat'] });
      expect(logins(moved.data.assignees)).toEqual(['octocat']);
    } finally {
      await receiver.close();
    }
  });
});

describe.each(TWIN_PLACES)("the GitHub twin's assignees by login in another case (%s)", (place) => {
  it("keeps each in the user's own case, on create, update and addAssignees, the issue's and the pull request's", async () => {
    const twin = await twinAt('github', place, twinRedis);
    const octokit = new Octokit({ auth: 'ghp_test123', baseUrl: twin.root, log: QUIET_LOG });
    const logins = (users: readonly ({ login: string } | null)[] | null | undefined) =>
      (users ?? []).map((user) => user?.login);
    // octo/app made by the twin's user in the organization `octo` (an organization is assigned
    // nothing): the user can be assigned, and a collaborator by its login as it was invited.
    const repo = { owner: 'octo', repo: 'app' };
    await madeRepos(octokit, 'octo/app');
    const invited = await octokit.rest.repos.addCollaborator({ ...repo, username: 'Alice' });
    await octokit.rest.repos.acceptInvitationForAuthenticatedUser({ invitation_id: Number(invited.data?.id) });
    const made = (await octokit.rest.issues.create({ ...repo, title: 'Mine', assignees: ['OctoCat', 'ALICE'] })).data;
    expect([logins(made.assignees), made.assignee?.login]).toEqual([['octocat', 'Alice'], 'octocat']);
    const alice = (await octokit.rest.repos.listCollaborators(repo)).data.find((one) => one.login === 'Alice');
    expect(made.assignees?.[1]?.id).toBe(alice?.id);
    const updated = await octokit.rest.issues.update({ ...repo, issue_number: made.number, assignees: ['aLiCe'] });
    expect(logins(updated.data.assignees)).toEqual(['Alice']);
    const one = await octokit.rest.issues.update({ ...repo, issue_number: made.number, assignee: 'OCTOCAT' });
    expect([one.data.assignee?.login, logins(one.data.assignees)]).toEqual(['octocat', ['octocat']]);
    // Added to a pull request through its issue, and read back from the pull request.
    const pull = (await octokit.rest.pulls.create({ ...repo, title: 'Fix', head: 'fix', base: 'main' })).data;
    const added = await octokit.rest.issues.addAssignees({ ...repo, issue_number: pull.number, assignees: ['ALICE'] });
    expect(logins(added.data.assignees)).toEqual(['Alice']);
    await octokit.rest.issues.update({ ...repo, issue_number: pull.number, assignees: ['alice', 'OctoCat'] });
    const read = (await octokit.rest.pulls.get({ ...repo, pull_number: pull.number })).data;
    expect(logins(read.assignees)).toEqual(['Alice', 'octocat']);
    expect(logins((await octokit.rest.issues.get({ ...repo, issue_number: made.number })).data.assignees)).toEqual([
      'octocat',
    ]);
    // Below a repository never made, a create with a login in another case is GitHub's 404, nothing kept.
    const elsewhere = { owner: 'octo', repo: 'never' };
    const untitled = octokit.rest.issues.create({ ...elsewhere, title: 'Elsewhere', assignees: ['OCTOCAT'] });
    expect(await rejection(untitled)).toEqual(GITHUB_NOT_FOUND);
    expect(await octokit.rest.repos.get(elsewhere).catch((error: { status: number }) => error.status)).toBe(404);
    // Still one who cannot be assigned is refused, in any case, nothing changed.
    const refused = await octokit.rest.issues
      .update({ ...repo, issue_number: made.number, assignees: ['BOB'] })
      .catch((error: { status: number }) => error.status);
    expect(refused).toBe(422);
  });
});
