/**
 * The files the contents API reads (one tree per repository, contents.ts) made the tree of the
 * commit the default branch is moved to by a ref's change (`git.createRef`, `git.updateRef`), so a
 * commit made through the Git database API is what `repos.getContent` reads once its branch points
 * at it.
 *
 * @module
 */
import type { FlowState } from '@mockpoint/core/internal';
import type { FileRecord } from './contents.js';
import { base64Size } from './git-objects.js';
import { blobReader, commitOf } from './history.js';

/** The collection of the contents API's files, by `{scope}:{path}`. */
export const FILES = 'contents';

/** Makes the files of the repository kept as `scope` those of the commit `sha` (nothing for a commit not held). */
export async function filesAt(state: FlowState, scope: string, sha: string): Promise<void> {
  const commit = await commitOf(state, scope, sha);
  if (commit === undefined) return;
  const blob = await blobReader(state, scope);
  const prefix = `${scope}:`;
  const all = await state.read<FileRecord>(FILES);
  for (const [key, file] of all) {
    if (key.startsWith(prefix) && commit.tree[file.path] === undefined) await state.keep(FILES, key, undefined);
  }
  for (const [path, at] of Object.entries(commit.tree)) {
    const key = `${prefix}${path}`;
    if (all.get(key)?.sha === at) continue;
    const content = blob(at);
    if (content === undefined) continue;
    const record: FileRecord = { path, content, size: base64Size(content), sha: at };
    await state.keep(FILES, key, record);
  }
}
