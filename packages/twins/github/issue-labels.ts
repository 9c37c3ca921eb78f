/**
 * The labels an issue is sent by name (`issues.create`, `issues.update`, `addLabels`, `setLabels`:
 * `["bug"]` or `[{ "name": "bug" }]`) as GitHub applies them: each the repository's label of that
 * name (case aside), whole (its `id`, `node_id`, `url`, `color`, `description`, `default`); a name
 * the repository has no label of made one of its labels first (`ededed`, no description), as
 * GitHub makes it, which the repository's labels list from then on (and its `label.created`).
 *
 * @module
 */
import type { FlowKit } from '@mockpoint/core/internal';
import { keyed } from './issues.js';
import { nodeIdOf } from './node-ids.js';
import type { RepoOperation } from './pushes.js';
import { live, REPOS, type RepoRecord } from './repo-kept.js';

const LABELS = '/repos/{owner}/{repo}/labels';

/** The names of the labels sent (a name or `{ name }` each), each once, at most 100 of 100 characters. */
export function labelNames(sent: Record<string, unknown>): string[] {
  const given = Array.isArray(sent.labels) ? sent.labels : [];
  const names = given
    .map((label) => (typeof label === 'string' ? label : String((label as { name?: unknown } | null)?.name ?? '')))
    .map((name) => name.slice(0, 100))
    .filter((name) => name !== '');
  return [...new Set(names)].slice(0, 100);
}

/** The repository's current owner and name, which a label's `url` names (a renamed one's, not the first it is kept under). */
async function shownValues(kit: FlowKit): Promise<Record<string, string>> {
  const scope = `${kit.values.owner ?? ''}/${kit.values.repo ?? ''}`.toLowerCase();
  const repository = live(await kit.read<RepoRecord>(REPOS)).find(
    (record) => record.scope?.toLowerCase() === scope,
  )?.repository;
  const login = (repository?.owner as { login?: unknown } | undefined)?.login;
  if (typeof login !== 'string' || typeof repository?.name !== 'string') return { ...kit.values };
  return { ...kit.values, owner: login, repo: repository.name };
}

/**
 * The repository's labels of the names sent, in the order sent; those it lacked made (written
 * through `kit`, kept with the request's change). `undefined`: no `labels` list was sent.
 */
export async function repoLabels(
  sent: Record<string, unknown>,
  kit: FlowKit,
): Promise<Record<string, unknown>[] | undefined> {
  if (!Array.isArray(sent.labels)) return undefined;
  const names = labelNames(sent);
  if (names.length === 0) return [];
  const kept = await kit.objects(LABELS, kit.values);
  const shown = await shownValues(kit);
  // Ids count over every repository's labels, as a label's create numbers them.
  let last = Math.max(0, ...(await kit.objects(LABELS)).map((label) => Number(label.id) || 0));
  const labels: Record<string, unknown>[] = [];
  for (const name of names) {
    const found = kept.find((label) => String(label.name).toLowerCase() === name.toLowerCase());
    if (found !== undefined) {
      if (!labels.includes(found)) labels.push(found);
      continue;
    }
    last += 1;
    const made: Record<string, unknown> = {
      ...kit.example(LABELS),
      id: last,
      node_id: nodeIdOf(LABELS, last),
      name,
      color: 'ededed',
      description: null,
      default: false,
    };
    keyed(LABELS, made, shown);
    kit.write({ kind: 'created', template: LABELS, object: made, values: { ...kit.values } });
    kept.push(made);
    labels.push(made);
  }
  return labels;
}

/** What `pulls.update` does not take of what an issue's update does (GitHub ignores them there). */
const NOT_PULLS = ['labels', 'milestone'];

/**
 * `pulls.update` (`PATCH …/pulls/{pull_number}`) with `labels` or `milestone`: taken without them,
 * as GitHub takes it (they are set through the pull request's issue), so none is applied or made.
 */
export const githubPullUpdateBody: RepoOperation = async (matched, request, _state, place) => {
  const { method, template } = matched.op;
  if (method !== 'PATCH' || template !== '/repos/{owner}/{repo}/pulls/{pull_number}') return undefined;
  if (!NOT_PULLS.some((field) => field in request.body)) return undefined;
  const body = { ...request.body };
  for (const field of NOT_PULLS) delete body[field];
  return { values: place.values, body };
};
