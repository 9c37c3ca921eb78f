/**
 * The files two trees differ in, as GitHub's `diff-entry` answers them (`repos.getCommit`,
 * `repos.compareCommits`, `pulls.listFiles`): `added`, `modified` or `removed`, the lines added
 * and deleted, and a unified `patch` of one hunk (the lines between the common first and last
 * ones: what changed, as a client reads it, if not git's smallest hunks).
 *
 * @module
 */
import { blobReader } from './history.js';
import type { RefsReader } from './refs.js';

/** Most lines of a file the twin writes a patch of; a longer one's `patch` is left out, as GitHub leaves out a large one's. */
const MAX_PATCH_LINES = 3000;

function linesOf(content: string | undefined): string[] {
  if (content === undefined || content === '') return [];
  const text = new TextDecoder().decode(Uint8Array.from(atob(content), (char) => char.charCodeAt(0)));
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** One hunk from `was` to `now`: the lines between their common start and end; the counts of lines added and deleted. */
function hunk(was: string[], now: string[]): { patch: string; additions: number; deletions: number } {
  let start = 0;
  while (start < was.length && start < now.length && was[start] === now[start]) start++;
  let end = 0;
  while (
    end < was.length - start &&
    end < now.length - start &&
    was[was.length - 1 - end] === now[now.length - 1 - end]
  )
    end++;
  const removed = was.slice(start, was.length - end);
  const added = now.slice(start, now.length - end);
  const range = (from: number, count: number) => (count === 0 ? `${from},0` : `${from + 1},${count}`);
  const head = `@@ -${range(start, removed.length)} +${range(start, added.length)} @@`;
  const body = [...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)];
  return { patch: [head, ...body].join('\n'), additions: added.length, deletions: removed.length };
}

/** The files `to` differs from `from` in, by path, each as GitHub's `diff-entry` at the repository `full`. */
export async function treeDiff(
  state: RefsReader,
  scope: string,
  full: string,
  ref: string,
  from: Readonly<Record<string, string>>,
  to: Readonly<Record<string, string>>,
): Promise<Record<string, unknown>[]> {
  const paths = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
  const entries: Record<string, unknown>[] = [];
  const blob = await blobReader(state, scope);
  for (const path of paths) {
    const was = from[path];
    const now = to[path];
    if (was === now) continue;
    const status = was === undefined ? 'added' : now === undefined ? 'removed' : 'modified';
    const before = linesOf(was === undefined ? undefined : blob(was));
    const after = linesOf(now === undefined ? undefined : blob(now));
    const { patch, additions, deletions } = hunk(before, after);
    const sha = now ?? was ?? '';
    entries.push({
      sha,
      filename: path,
      status,
      additions,
      deletions,
      changes: additions + deletions,
      blob_url: `https://github.com/${full}/blob/${ref}/${path}`,
      raw_url: `https://github.com/${full}/raw/${ref}/${path}`,
      contents_url: `https://api.github.com/repos/${full}/contents/${path}?ref=${ref}`,
      ...(before.length + after.length <= MAX_PATCH_LINES ? { patch } : {}),
    });
  }
  return entries;
}
