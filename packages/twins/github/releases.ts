/**
 * GitHub's releases and pull request reviews as GitHub answers them (issue #73), kept as the
 * repository's collections (`/repos/{owner}/{repo}/releases`, `…/pulls/{pull_number}/reviews`):
 * a release made by the authenticated user, a draft unpublished (`published_at: null`) until an
 * update makes it public, its URLs at its id and tag; a review's `state` from the `event` sent
 * (`APPROVE`: `APPROVED`, `REQUEST_CHANGES`: `CHANGES_REQUESTED`, `COMMENT`: `COMMENTED`, none:
 * `PENDING`), submitted at once unless pending; and a pull request's `head` and `base` as branches.
 * A release's `upload_url` is at the twin's own root as the request that made it reached it (so
 * Octokit's `uploadReleaseAsset({ url: release.upload_url, … })` uploads to the twin: assets.ts).
 *
 * @module
 */

import type { FlowKit, FlowTools } from '@mockpoint/core/internal';
import { GITHUB_USER } from './issues.js';
import { shownRepo } from './repo-kept.js';

const API = 'https://api.github.com';
/** GitHub's host of uploads, a release's `upload_url` where the twin's own root is not known. */
const UPLOADS = 'https://uploads.github.com';

const REVIEW_STATES: Record<string, string> = {
  APPROVE: 'APPROVED',
  REQUEST_CHANGES: 'CHANGES_REQUESTED',
  COMMENT: 'COMMENTED',
};

/** A pull request's `head` or `base` of the branch sent (`feature`, or `owner:feature`). */
function branchOf(example: unknown, sent: unknown): unknown {
  if (typeof sent !== 'string') return example;
  const ref = sent.slice(sent.indexOf(':') + 1);
  const had = typeof example === 'object' && example !== null ? example : {};
  return { ...had, ref, label: sent.includes(':') ? sent : `${GITHUB_USER.login}:${ref}` };
}

/** A new release's, review's or pull request's state from what was sent. */
export function releaseCreated(
  template: string,
  object: Record<string, unknown>,
  sent: Record<string, unknown>,
  kit: FlowKit,
): void {
  const last = template.split('/').at(-1);
  const now = new Date(kit.now()).toISOString();
  if (last === 'pulls') {
    const example = kit.example(template);
    object.head = branchOf(example.head, sent.head);
    object.base = branchOf(example.base, sent.base);
  } else if (last === 'releases') {
    object.author = GITHUB_USER;
    object.draft = sent.draft === true;
    object.prerelease = sent.prerelease === true;
    object.name = typeof sent.name === 'string' ? sent.name : null;
    object.body = typeof sent.body === 'string' ? sent.body : null;
    object.target_commitish = typeof sent.target_commitish === 'string' ? sent.target_commitish : 'main';
    object.assets = [];
    object.published_at = object.draft ? null : now;
  } else if (last === 'reviews') {
    object.user = GITHUB_USER;
    object.state = REVIEW_STATES[String(sent.event)] ?? 'PENDING';
    object.body = typeof sent.body === 'string' ? sent.body : '';
    object.submitted_at = object.state === 'PENDING' ? null : now;
  }
}

/** A new release's or review's URLs, once its id is taken. */
export function releaseKeyed(
  template: string,
  object: Record<string, unknown>,
  values: Record<string, string>,
  root?: string,
): void {
  const last = template.split('/').at(-1);
  const { owner = 'octocat' } = values;
  const repo = shownRepo(values.repo ?? 'hello-world');
  const api = `${API}/repos/${owner}/${repo}`;
  const web = `https://github.com/${owner}/${repo}`;
  if (last === 'releases') {
    const tag = encodeURIComponent(String(object.tag_name));
    Object.assign(object, {
      url: `${api}/releases/${object.id}`,
      html_url: `${web}/releases/tag/${tag}`,
      assets_url: `${api}/releases/${object.id}/assets`,
      // At the twin's own root, where the request reached it (GitHub's uploads host where it named none).
      upload_url: `${root ?? UPLOADS}/repos/${owner}/${repo}/releases/${object.id}/assets{?name,label}`,
      tarball_url: `${api}/tarball/${tag}`,
      zipball_url: `${api}/zipball/${tag}`,
    });
  } else if (last === 'reviews' && values.pull_number !== undefined) {
    const html = `${web}/pull/${values.pull_number}#pullrequestreview-${object.id}`;
    const pull = `${api}/pulls/${values.pull_number}`;
    Object.assign(object, {
      html_url: html,
      pull_request_url: pull,
      _links: { html: { href: html }, pull_request: { href: pull } },
    });
  }
}

/** A draft made public by an update: published now. */
export function releaseUpdating(object: Record<string, unknown>, tools: FlowTools): void {
  if (object.draft !== true && (object.published_at === null || object.published_at === undefined)) {
    object.published_at = new Date(tools.now()).toISOString();
  }
}
