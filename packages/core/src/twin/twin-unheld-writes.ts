/**
 * A write outside the collections' own actions (twin-actions.ts's `other`) that names, by its path,
 * an object below an implied one (a profile's `implied` path parameters: a repository) that
 * the twin does not hold, refused with the provider's 404 before the document's example answers
 * it (`unseen: "missing"`; with `"examples"` nothing is refused):
 *
 * - one at the item of a collection, by a method the profile does not update with (`PUT
 *   …/rulesets/{ruleset_id}` where updates are `PATCH`), unless the document answers it `201
 *   Created`: then it makes what it names (`PUT …/actions/secrets/{secret_name}`);
 * - one below an object the document reads by a path of its own (`POST
 *   …/actions/jobs/{job_id}/rerun`, read at `GET …/actions/jobs/{job_id}`) that is no collection's
 *   item: the twin never keeps such an object, so it holds none.
 *
 * And, for a provider whose flows answer the missing object first (`missingFirst`), the object a
 * request's path names refused before its values are ({@link heldFirst}).
 *
 * @module
 */
import { Refusal } from './twin-answer.js';
import type { Twin } from './twin-context.js';
import type { MatchedOperation } from './twin-operation.js';
import { heldOrMissing, missing, ownerOf } from './twin-references.js';

/** Whether the document answers `operation` `201 Created`. */
function creates(operation: Record<string, unknown>): boolean {
  const responses = operation.responses;
  return typeof responses === 'object' && responses !== null && '201' in responses;
}

/** The path templates `template` is below, each ending in a parameter, the longest first (not `template` itself). */
function parentsOf(template: string): { path: string; param: string }[] {
  const segments = template.split('/');
  const out: { path: string; param: string }[] = [];
  for (let end = segments.length - 1; end > 0; end--) {
    const last = segments[end - 1] ?? '';
    if (last.startsWith('{') && last.endsWith('}')) {
      out.push({ path: segments.slice(0, end).join('/'), param: last.slice(1, -1) });
    }
  }
  return out;
}

/** Refuses a write of `matched` naming an object the twin does not hold (above); returns where it is answered. */
export async function unheldWrite(twin: Twin, matched: MatchedOperation): Promise<void> {
  const implied = twin.parts.profile.implied;
  const { method, template } = matched.op;
  if (implied === undefined || twin.examples || method === 'GET') return;
  // Only below an implied object (`/repos/{owner}/{repo}/…`).
  if (!implied.some((param) => template.includes(`{${param}}/`))) return;
  const model = twin.parts.model;
  const item = model.resources.find((resource) => template === `${resource.template}/{${resource.idParam}}`);
  if (item !== undefined) {
    if (!implied.includes(item.idParam) && !creates(matched.op.operation))
      await heldOrMissing(twin, matched, item, false);
    return;
  }
  for (const parent of parentsOf(template)) {
    if (implied.includes(parent.param)) return;
    const read = model.operations.some((op) => op.method === 'GET' && op.template === parent.path);
    const kept = model.resources.some((resource) => parent.path === `${resource.template}/{${resource.idParam}}`);
    if (!read || kept) continue;
    const id = String(matched.values[parent.param] ?? '');
    throw new Refusal(missing(twin, { template: parent.path, objectName: undefined }, id));
  }
}

/**
 * Refuses with the provider's 404 a request whose path names an object the twin does not hold: the
 * one it is below (`…/issues/{issue_number}/lock`), else the item it reads or changes
 * (`…/milestones/{milestone_number}`); an implied one (`{repo}`) aside. Asked before a value is
 * refused, where the flows say `missingFirst`.
 */
export async function heldFirst(twin: Twin, matched: MatchedOperation): Promise<void> {
  if (twin.examples) return;
  const owner = ownerOf(twin, matched);
  if (owner !== undefined) return heldOrMissing(twin, matched, owner);
  const { action, resource } = matched.op;
  const implied = twin.parts.profile.implied ?? [];
  if (resource === undefined || action === 'create' || action === 'list' || implied.includes(resource.idParam)) return;
  if (matched.values[resource.idParam] !== undefined) await heldOrMissing(twin, matched, resource);
}
