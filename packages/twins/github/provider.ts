/**
 * GitHub as one provider object (twin-provider.ts): its flows and `mockpoint trigger`'s fixtures
 * for its common webhook events.
 *
 * @module
 */

import type { ProviderTrigger, TwinProvider } from '@mockpoint/core/internal';
import { GITHUB } from './fixtures.js';
import { githubFlows } from './flows.js';
import { GITHUB_USER } from './issues.js';

/** `owner/name` as GitHub names them: neither `.` nor `..`. */
const REPO = /^(?!\.{1,2}\/)[A-Za-z0-9_.-]{1,100}\/(?!\.{1,2}$)[A-Za-z0-9_.-]{1,100}$/;

/** A trigger names the repository its event is about; its fixtures name it, its owner, a new label and the commits they make. */
const trigger: ProviderTrigger = {
  fields: {
    repo: {
      description: 'the repository (owner/name) the event is about',
      form: 'owner/name',
      pattern: REPO,
      rule: 'owner/name, each 1–100 of A-Z a-z 0-9 _ . -',
      default: 'octocat/hello-world',
    },
  },
  words: ({ repo = '' }, unique) => {
    const [owner = '', name = ''] = repo.split('/');
    // Where the repository is made when the twin holds none: the user's own, or an organization's.
    const repos = owner.toLowerCase() === GITHUB_USER.login ? 'user/repos' : `orgs/${owner}/repos`;
    return { repo, owner, name, repos, label: `triage-${unique}` };
  },
  // The repository the event is about, made as a user would before clicking (GitHub's `404` below
  // one never made); one the twin holds already answers `422` and is left as it is.
  before: [{ method: 'POST', path: '/{repos}', body: { name: '{name}' } }],
  // The commit a write made (`{sha}`), for the next step that names it.
  answered: (value) => {
    const commit = value.commit as { sha?: unknown } | null | undefined;
    return typeof commit?.sha === 'string' ? { words: { sha: commit.sha } } : {};
  },
};

export const githubProvider: TwinProvider = {
  name: 'github',
  title: 'GitHub',
  flows: githubFlows,
  fixtures: GITHUB,
  event: 'issues.opened',
  trigger,
};
