/**
 * A repository's archives (`repos.downloadTarballArchive`, `repos.downloadZipballArchive`) as
 * GitHub answers them: `302 Found` to codeload.github.com with the archive's `Location`
 * (`https://codeload.github.com/{owner}/{repo}/legacy.tar.gz/refs/heads/main`, `legacy.zip` for a
 * zipball), a branch or tag named by its full ref, a commit by its SHA; a ref the repository does
 * not hold is GitHub's `404 Not Found`. The twin makes no archive: a client that follows the
 * redirect leaves it, as it leaves GitHub.
 *
 * @module
 */
import type { OwnAnswer } from '@mockpoint/core/internal';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation } from './pushes.js';
import { refNamed } from './refs.js';

const REPO = '/repos/{owner}/{repo}';
const KINDS: Record<string, string> = { [`${REPO}/tarball/{ref}`]: 'tar.gz', [`${REPO}/zipball/{ref}`]: 'zip' };

const MISSING: OwnAnswer = { error: NOT_FOUND };

/** `GET …/tarball/{ref}`, `…/zipball/{ref}`: GitHub's redirect to the archive; `undefined`: another operation. */
export const githubArchives: RepoOperation = async (matched, _request, state, place) => {
  const kind = KINDS[matched.op.template];
  if (kind === undefined || matched.op.method !== 'GET') return undefined;
  if (place.repository === undefined) return MISSING;
  const named = await refNamed(state, place.scope, matched.values.ref ?? '');
  if (named === undefined) return MISSING;
  const full = String(place.repository.full_name);
  const location = `https://codeload.github.com/${full}/legacy.${kind}/${named}`;
  return { status: 302, headers: { location } };
};
