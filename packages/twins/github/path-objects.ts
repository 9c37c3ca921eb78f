/**
 * What a path names outside a repository (#84): GitHub resolves every object a request's path
 * names before it reads what the request sent, and answers `404 Not Found` for one that does not
 * exist. Below a repository the engine and repos.ts do that; below an organization orgs.ts, for the
 * organization itself. This is the rest, by the path parameter's name, left to right:
 *
 * - `enterprise`, `enterprise-team`: none — an enterprise is made on github.com, through no API;
 * - `org` outside `/orgs/{org}/…` (`/organizations/{org}/…`, `/user/memberships/orgs/{org}`): an
 *   organization the twin holds (orgs.ts);
 * - `username`, `target_user`: a login GitHub could give an account (1–39 letters, digits and
 *   single hyphens, none first or last). The twin cannot know GitHub's users, and takes every
 *   login one could have, as collaborators.ts does;
 * - `team_slug` below `/orgs/{org}`: a team of that organization, `team_id`: a team of any
 *   (teams.ts); an enterprise's team: none;
 * - `owner` and `repo` outside `/repos/…` (`/user/starred/{owner}/{repo}`,
 *   `/teams/{team_id}/repos/{owner}/{repo}`), `template_owner` and `template_repo`: a repository
 *   the twin holds;
 * - `thread_id`: none, as the twin keeps no notifications (notifications.ts); `code` of an App
 *   manifest: none, as only github.com's manifest flow gives one; `package_type` and
 *   `package_name`: none, as packages are published by a registry's client, through no REST
 *   operation; `project_number`: none, as a project is made through GraphQL alone; `role_id` of
 *   an organization role: none, as the twin lists none (`GET /orgs/{org}/organization-roles`);
 * - `space_number` below `/users/{username}`: one of that user's Copilot spaces;
 * - `client_id` (`/applications/{client_id}/…`): the twin's App's (installations.ts);
 * - `attestation_id` of an organization's or a user's attestations: one a repository of that owner
 *   keeps (`POST /repos/{owner}/{repo}/attestations`); `subject_digest`: none, as the twin keeps
 *   of an attestation what its create answers, its `id`, and no bundle to find a subject in.
 *
 * Each answers GitHub's 404 before any value sent is read (flows.ts's `missingFirst`), and keeps
 * nothing; with `unseen: "examples"`, nothing is refused.
 *
 * @module
 */
import type { FlowState, MatchedOperation, OwnOperation } from '@mockpoint/core/internal';
import { CLIENT_ID } from './installations.js';
import { LOGIN } from './logins.js';
import { NOT_FOUND } from './not-found.js';
import { organizations } from './orgs.js';
import { live, loginOf, records } from './repo-kept.js';
import { teamById, teamHeld } from './teams.js';

/** Whether the object `value` of the path's parameter names is held; `undefined`: the parameter names none here. */
type Held = (value: string, matched: MatchedOperation, state: FlowState) => Promise<boolean | undefined>;

const none: Held = async () => false;
const login: Held = async (value) => LOGIN.test(value);

/** A repository the twin holds, by the path's `owner`/`repo` pair (`template_` ones too). */
function repository(ownerParam: string, repoParam: string): Held {
  return async (_value, matched, state) => {
    const owner = matched.values[ownerParam];
    const repo = matched.values[repoParam];
    if (owner === undefined || repo === undefined) return undefined;
    const [login, name] = [owner.toLowerCase(), repo.toLowerCase()];
    return live(await records(state)).some(
      (record) => loginOf(record) === login && String(record.repository?.name).toLowerCase() === name,
    );
  };
}

/** One of the attestations the repositories of the path's owner (`org` or `username`) keep, by `id`. */
const attestation: Held = async (value, matched, state) => {
  const owner = (matched.values.org ?? matched.values.username ?? '').toLowerCase();
  for (const [scope, items] of await state.objectsByScope('/repos/{owner}/{repo}/attestations')) {
    if (scope.slice(0, scope.indexOf('/')).toLowerCase() === owner && items.some((item) => String(item.id) === value))
      return true;
  }
  return false;
};

/** How each path parameter's object is held, by the parameter's name (the module's list). */
const HELD: Record<string, Held> = {
  enterprise: none,
  'enterprise-team': none,
  org: async (value, matched, state) =>
    matched.op.template.startsWith('/orgs/{org}') ? undefined : (await organizations(state)).has(value.toLowerCase()),
  username: login,
  target_user: login,
  team_slug: async (value, matched, state) =>
    matched.values.org === undefined || matched.op.template.startsWith('/enterprises/')
      ? false
      : teamHeld(state, matched.values.org, value),
  team_id: async (value, _matched, state) => (await teamById(state, value)) !== undefined,
  owner: async (value, matched, state) =>
    matched.op.template.startsWith('/repos/') ? undefined : repository('owner', 'repo')(value, matched, state),
  template_owner: repository('template_owner', 'template_repo'),
  space_number: async (value, matched, state) =>
    matched.values.username === undefined
      ? undefined
      : (await state.objects('/users/{username}/copilot-spaces', { username: matched.values.username })).some(
          (space) => String(space.number) === value,
        ),
  thread_id: none,
  code: async (_value, matched) => (matched.op.template.startsWith('/app-manifests/') ? false : undefined),
  package_type: none,
  project_number: none,
  role_id: async (_value, matched) => (matched.op.template.includes('/organization-roles/') ? false : undefined),
  client_id: async (value) => value === CLIENT_ID,
  attestation_id: attestation,
  subject_digest: async (_value, matched) => (matched.op.template.includes('/attestations/') ? false : undefined),
};

/** The parameters of `template`, in order. */
function paramsOf(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] as string);
}

/** Whether a path of `template` names an object this module resolves (one below a repository is repos.ts's). */
function namesPathObject(template: string): boolean {
  return !template.startsWith('/repos/{owner}/{repo}') && paramsOf(template).some((param) => param in HELD);
}

/** GitHub's 404 for a request whose path names an object the twin does not hold (above); `undefined`: not refused here. */
export const githubPathObjects: OwnOperation = async (matched, _sent, state) => {
  const { template } = matched.op;
  if (state.examples || !namesPathObject(template)) return undefined;
  for (const param of paramsOf(template)) {
    const held = HELD[param];
    const value = matched.values[param];
    if (held === undefined || value === undefined) continue;
    if ((await held(value, matched, state)) === false) return { error: NOT_FOUND };
  }
  return undefined;
};
