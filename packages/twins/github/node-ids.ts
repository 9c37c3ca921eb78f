/**
 * GitHub's global node ids (`node_id`) of what the twin makes: each one its kind's prefix and an
 * opaque URL-safe base64 text, made as GitHub makes its current ids — the MessagePack array of a
 * version `0` and the object's database ids (`R_kgDOAAAAAQ` is repository 1) — so one id a kind
 * and number, unique and the same on every read, never a document's example.
 *
 * @module
 */

/** GitHub's prefixes of the kinds whose collections the twin keeps, by the collection's path below a repository. */
const KINDS: Record<string, string> = {
  issues: 'I',
  pulls: 'PR',
  labels: 'LA',
  milestones: 'MI',
  'issues/comments': 'IC',
  'pulls/comments': 'PRRC',
  'pulls/{pull_number}/comments': 'PRRC',
  'pulls/{pull_number}/reviews': 'PRR',
  releases: 'RE',
  deployments: 'DE',
  'deployments/{deployment_id}/statuses': 'DES',
  comments: 'CC',
};

const REPO = '/repos/{owner}/{repo}/';

/** A MessagePack unsigned integer: `0xce` and 4 bytes, or `0xcf` and 8 past 32 bits. */
function uint(id: number): number[] {
  const big = BigInt(Math.max(0, Math.trunc(id)));
  const width = big > 0xffffffffn ? 8 : 4;
  const bytes = [width === 8 ? 0xcf : 0xce];
  for (let at = width - 1; at >= 0; at--) bytes.push(Number((big >> BigInt(at * 8)) & 0xffn));
  return bytes;
}

/** GitHub's node id of an object of `kind` (`I`, `PR`, `R`, …) numbered by `ids` (its database id last). */
export function nodeId(kind: string, ...ids: number[]): string {
  const bytes = [0x90 + ids.length + 1, 0x00, ...ids.flatMap(uint)];
  const base64 = btoa(String.fromCharCode(...bytes));
  return `${kind}_${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/** A number for a collection's path, so that two collections of one prefix never share an id. */
function hashed(template: string): number {
  let hash = 7;
  for (const char of template) hash = (hash * 31 + (char.codePointAt(0) as number)) >>> 0;
  return hash;
}

/**
 * The node id of the object `id` of the collection at `template`: GitHub's prefix of a kind it
 * names (an issue `I_…`, a pull request `PR_…`, a label `LA_…`, a milestone `MI_…`, an issue
 * comment `IC_…`); another collection's the initials of its path, the path counted in the id.
 */
export function nodeIdOf(template: string, id: number): string {
  const below = template.startsWith(REPO) ? template.slice(REPO.length) : undefined;
  const kind = below === undefined ? undefined : KINDS[below];
  if (kind !== undefined) return nodeId(kind, id);
  const initials = template
    .split('/')
    .filter((segment) => segment !== '' && segment !== 'repos' && !segment.startsWith('{'))
    .map((segment) => (segment[0] ?? 'X').toUpperCase())
    .join('');
  return nodeId(initials === '' ? 'X' : initials, hashed(template), id);
}
