/**
 * The installations of the twin's GitHub App (`mockpoint`, id 1: checks.ts's) as its REST API keeps
 * them (issue #73). Installing an App happens on github.com, through no API: the twin takes
 * `PUT /user/installations/{installation_id}/repositories/{repository_id}` (GitHub's "add a
 * repository to an app installation") of an installation it does not hold as that click, an
 * installation `{installation_id}` on the repository's owner with that one repository selected
 * (`installation.created`); of one it holds, the repository added (no event: the twin sends no
 * `installation_repositories`). `DELETE` of it removes the repository (`422` for its last one).
 * `GET /app/installations` and `/app/installations/{installation_id}` read them, `GET
 * /user/installations` (`{ total_count, installations }`) and `…/{installation_id}/repositories`
 * too; `DELETE /app/installations/{installation_id}` uninstalls it (`installation.deleted`), `PUT`
 * and `DELETE …/suspended` suspend it (`suspended_at`, `suspended_by`; `installation.suspend`) and
 * unsuspend it (`installation.unsuspend`). Each event goes to the hooks of the installation's first
 * repository (GitHub sends them to the App's webhook) as an App's delivery: `installation`,
 * `repositories` (not for a suspension), `sender`, and no `repository`.
 *
 * @module
 */
import type { FlowState, OwnAnswer, OwnOperation } from '@mockpoint/core/internal';
import { GITHUB_USER } from './issues.js';
import { NOT_FOUND } from './not-found.js';
import { live, records, valuesOf } from './repo-kept.js';

const KIND = 'installations';
const APP_INSTALLATION = '/app/installations/{installation_id}';
const USER_REPOSITORY = '/user/installations/{installation_id}/repositories/{repository_id}';
/** The twin's App (checks.ts's `app` of a check run). */
export const APP_ID = 1;
/** The twin's App's `client_id` (its OAuth credentials' name: `/applications/{client_id}/…`). */
export const CLIENT_ID = 'Iv1.0123456789abcdef';

/** An installation kept: it as answered, the repositories it selects, where its events go. */
interface InstallationRecord {
  installation: Record<string, unknown>;
  repositories: Record<string, unknown>[];
  values: Record<string, string>;
}

/** A repository as an installation's payload lists it. */
function listed(repository: Record<string, unknown>): Record<string, unknown> {
  const { id, node_id, name, full_name } = repository;
  return { id, node_id, name, full_name, private: repository.private === true };
}

function tell(state: FlowState, record: InstallationRecord, action: string): void {
  state.emit({
    kind: 'action',
    template: APP_INSTALLATION,
    object: record.installation,
    values: record.values,
    events: [`installation.${action}`],
    ...(action === 'suspend' || action === 'unsuspend' ? {} : { extra: { repositories: record.repositories } }),
  });
}

/** The live repository of `id`, with the values its collections (and hooks) are kept under. */
async function repositoryOf(state: FlowState, id: string) {
  const found = live(await records(state)).find((record) => String(record.repository?.id) === id);
  if (found?.repository === undefined) return undefined;
  const scope = found.scope ?? String(found.repository.full_name);
  return { repository: found.repository, values: valuesOf(scope) };
}

async function install(id: string, repositoryId: string, state: FlowState): Promise<OwnAnswer> {
  const found = await repositoryOf(state, repositoryId);
  if (found === undefined || !/^[1-9]\d{0,15}$/.test(id)) return { error: NOT_FOUND };
  const held = (await state.read<InstallationRecord>(KIND)).get(id);
  const repository = listed(found.repository);
  if (held !== undefined) {
    if (held.repositories.some((one) => one.id === repository.id)) return { status: 204 };
    await state.keep(KIND, id, { ...held, repositories: [...held.repositories, repository] });
    return { status: 204 };
  }
  const account = found.repository.owner as Record<string, unknown>;
  const organization = account.type === 'Organization';
  const now = new Date(state.now()).toISOString();
  const login = String(account.login);
  const installation = {
    ...state.example('GET', APP_INSTALLATION),
    id: Number(id),
    account,
    repository_selection: 'selected',
    access_tokens_url: `https://api.github.com/app/installations/${id}/access_tokens`,
    repositories_url: 'https://api.github.com/installation/repositories',
    html_url: organization
      ? `https://github.com/organizations/${login}/settings/installations/${id}`
      : `https://github.com/settings/installations/${id}`,
    app_id: APP_ID,
    app_slug: 'mockpoint',
    client_id: CLIENT_ID,
    target_id: account.id,
    target_type: organization ? 'Organization' : 'User',
    permissions: { checks: 'write', contents: 'read', issues: 'write', metadata: 'read' },
    events: ['push', 'pull_request', 'issues'],
    created_at: now,
    updated_at: now,
    suspended_at: null,
    suspended_by: null,
  };
  const record: InstallationRecord = { installation, repositories: [repository], values: found.values };
  await state.keep(KIND, id, record);
  tell(state, record, 'created');
  return { status: 204 };
}

/**
 * The installation of the twin's App that selects the repository of `id` (`GET
 * /repos/{owner}/{repo}/installation`, singulars.ts; `undefined`: none, GitHub's 404).
 */
export async function installationOf(state: FlowState, id: unknown): Promise<Record<string, unknown> | undefined> {
  if (id === undefined) return undefined;
  const all = [...(await state.read<InstallationRecord>(KIND)).values()];
  return all.find((record) => record.repositories.some((one) => one.id === id))?.installation;
}

/** The App's installations and the user's: `undefined`, not theirs. */
export const githubInstallations: OwnOperation = async (matched, _sent, state) => {
  const { method, template } = matched.op;
  const all = await state.read<InstallationRecord>(KIND);
  // A list the twin never wrote, with `unseen: "examples"`: the document's example.
  if (state.examples && all.size === 0) return undefined;
  // The twin's App itself (`GET /app`): its id, slug and client id those of its installations.
  if (template === '/app' && method === 'GET') {
    return {
      status: 200,
      body: { ...state.example('GET', '/app'), id: APP_ID, slug: 'mockpoint', client_id: CLIENT_ID },
    };
  }
  const id = matched.values.installation_id ?? '';
  if (template === '/app/installations' && method === 'GET') {
    return { list: [...all.values()].map((record) => record.installation) };
  }
  if (template === '/user/installations' && method === 'GET') {
    return {
      list: [...all.values()].map((record) => record.installation),
      wrap: (items, total) => ({ total_count: total, installations: items }),
    };
  }
  if (template === USER_REPOSITORY && method === 'PUT') return install(id, matched.values.repository_id ?? '', state);
  const record = all.get(id);
  const belongs =
    template === APP_INSTALLATION ||
    template === `${APP_INSTALLATION}/suspended` ||
    template === USER_REPOSITORY ||
    template === '/user/installations/{installation_id}/repositories';
  if (!belongs) return undefined;
  if (record === undefined) return { error: NOT_FOUND };
  if (template === APP_INSTALLATION) {
    if (method === 'GET') return { status: 200, body: record.installation };
    if (method !== 'DELETE') return undefined;
    await state.keep(KIND, id, undefined);
    tell(state, record, 'deleted');
    return { status: 204 };
  }
  if (template === '/user/installations/{installation_id}/repositories') {
    if (method !== 'GET') return undefined;
    return {
      list: record.repositories,
      wrap: (items, total) => ({ total_count: total, repository_selection: 'selected', repositories: items }),
    };
  }
  if (template === USER_REPOSITORY) {
    if (method !== 'DELETE') return undefined;
    const repositoryId = matched.values.repository_id ?? '';
    const left = record.repositories.filter((one) => String(one.id) !== repositoryId);
    if (left.length === record.repositories.length) return { error: NOT_FOUND };
    if (left.length === 0) {
      const message = 'An installation must have at least one repository selected; uninstall it instead.';
      return { error: { status: 422, type: 'invalid_request_error', message } };
    }
    await state.keep(KIND, id, { ...record, repositories: left });
    return { status: 204 };
  }
  if (method !== 'PUT' && method !== 'DELETE') return undefined;
  const suspended = method === 'PUT';
  if ((record.installation.suspended_at !== null) === suspended) return { status: 204 };
  const now = new Date(state.now()).toISOString();
  const installation = {
    ...record.installation,
    suspended_at: suspended ? now : null,
    suspended_by: suspended ? GITHUB_USER : null,
    updated_at: now,
  };
  const next = { ...record, installation };
  await state.keep(KIND, id, next);
  tell(state, next, suspended ? 'suspend' : 'unsuspend');
  return { status: 204 };
};
