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
 *   item: held only where the provider's own flows answer that read (GitHub's branch, environment:
 *   `POST …/branches/{branch}/rename`), else the twin never keeps such an object, so it holds none.
 *
 * And, for a provider whose flows answer the missing object first (`missingFirst`), the object a
 * request's path names refused before its values are ({@link heldFirst}).
 *
 * @module
 */
import { Refusal } from './twin-answer.js';
import type { Twin } from './twin-context.js';
import type { FlowError, OwnRequest } from './twin-flows.js';
import { missing } from './twin-missing.js';
import type { MatchedOperation } from './twin-operation.js';
import { dryState, ownHolds } from './twin-own-probe.js';
import { pathIndex } from './twin-path-index.js';
import { heldOrMissing, ownerOf } from './twin-references.js';

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
  const index = pathIndex(twin.parts.model);
  const item = index.items.get(template);
  if (item !== undefined) {
    if (!implied.includes(item.idParam) && !creates(matched.op.operation))
      await heldOrMissing(twin, matched, item, false);
    return;
  }
  for (const parent of parentsOf(template)) {
    if (implied.includes(parent.param)) return;
    const read = index.reads.get(parent.path);
    const kept = index.items.has(parent.path);
    if (read === undefined || kept) continue;
    // One the provider's own flows keep (a branch, an environment): held where they answer its read.
    if (await ownHolds(twin, { op: read, values: matched.values })) return;
    const id = String(matched.values[parent.param] ?? '');
    throw new Refusal(missing(twin, { template: parent.path, objectName: undefined }, id));
  }
}

/**
 * What the provider's own flows (twin-own.ts) answer of `matched`, asked without changing anything
 * ({@link dryState}): the refusal of an object its path names that they do not hold (a 404, or an
 * error marked `missing`); `'held'` where they take the operation otherwise (answer it, refuse a
 * value, or change an object of a collection); `undefined` where they leave it to the collections.
 */
async function ownMissing(
  twin: Twin,
  matched: MatchedOperation,
  sent: OwnRequest,
): Promise<FlowError | 'held' | undefined> {
  const own = twin.parts.flows?.own;
  if (own === undefined) return undefined;
  let answer: Awaited<ReturnType<typeof own>>;
  try {
    answer = await own(matched, sent, dryState(twin));
  } catch {
    // A change (what it reads is held), or a value the flow could not read: the values' refusal answers.
    return 'held';
  }
  if (answer === undefined || 'values' in answer) return undefined;
  if ('error' in answer && (answer.error.status === 404 || answer.error.missing === true)) return answer.error;
  return 'held';
}

/**
 * Refuses with the provider's 404 a request whose path names an object the twin does not hold: the
 * one it is below (`…/issues/{issue_number}/lock`), else the item it reads or changes
 * (`…/milestones/{milestone_number}`); an implied one (`{repo}`) aside; else one the twin never
 * keeps ({@link unheldWrite}); but first one the provider's own flows keep (a branch, a git ref, an
 * environment: {@link ownMissing}), as they answer before the collections. Asked before a value is refused, where the flows say `missingFirst`.
 */
export async function heldFirst(twin: Twin, matched: MatchedOperation, sent: OwnRequest): Promise<void> {
  if (twin.examples) return;
  // The provider's own flows first, as a request is answered (twin-actions.ts's `owned`).
  const own = await ownMissing(twin, matched, sent);
  if (typeof own === 'object') throw new Refusal(own);
  if (own === 'held') return;
  const owner = ownerOf(twin, matched);
  if (owner !== undefined) return heldOrMissing(twin, matched, owner);
  const { action, resource } = matched.op;
  const implied = twin.parts.profile.implied ?? [];
  const item =
    resource !== undefined && action !== 'create' && action !== 'list' && !implied.includes(resource.idParam);
  if (item && matched.values[resource.idParam] !== undefined) return heldOrMissing(twin, matched, resource);
  if (resource === undefined) await unheldWrite(twin, matched);
}
