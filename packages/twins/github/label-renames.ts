/**
 * A label renamed by `new_name` (`issues.updateLabel`) is renamed on the issues and pull requests
 * that carry it too, as GitHub's labels are one object: read before the engine's update renames
 * the label itself (issues.ts `labelRenamed`), so only a rename it will make (the label held, the
 * new name no other label's) moves them, with no event of theirs (GitHub sends `label.edited` alone).
 *
 * @module
 */

import type { FlowState } from '@mockpoint/core/internal';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { urlPart } from './url-part.js';

const REPO = '/repos/{owner}/{repo}';
const LABELS = `${REPO}/labels`;
const CARRIERS = [`${REPO}/issues`, `${REPO}/pulls`];

/** The label renamed from `from` to `to` on each issue and pull request of the repository that carries it. */
async function renameOnIssues(state: FlowState, place: RepoPlace, from: string, to: string): Promise<void> {
  for (const template of CARRIERS) {
    for (const object of await state.objects(template, place.values)) {
      const labels = Array.isArray(object.labels) ? (object.labels as unknown[]) : [];
      if (!labels.some((label) => (label as { name?: unknown } | null)?.name === from)) continue;
      await state.amend(template, place.values, String(object.number), (kept) => {
        kept.labels = (Array.isArray(kept.labels) ? kept.labels : []).map((label) => {
          const one = label as Record<string, unknown> | null;
          if (one?.name !== from) return label;
          const url = String(one.url ?? '');
          const at = url.lastIndexOf('/labels/');
          return {
            ...one,
            name: to,
            ...(at >= 0 ? { url: `${url.slice(0, at)}/labels/${urlPart(to)}` } : {}),
          };
        });
      });
    }
  }
}

/** Renames a label's name on what carries it before the engine renames the label; never answers itself. */
export const githubLabelRenames: RepoOperation = async (matched, request, state, place) => {
  if (matched.op.template !== `${LABELS}/{name}` || matched.op.method !== 'PATCH') return undefined;
  const from = matched.values.name ?? '';
  const to = request.body.new_name;
  if (typeof to !== 'string' || to === '' || to === from) return undefined;
  const labels = await state.objects(LABELS, place.values);
  // A rename the engine refuses (no such label, the name another's) moves nothing.
  if (!labels.some((label) => label.name === from) || labels.some((label) => label.name === to)) return undefined;
  await renameOnIssues(state, place, from, to);
  return undefined;
};
