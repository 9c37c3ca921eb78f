/**
 * GitHub's releases and pull request reviews as GitHub answers them (issue #73), kept as the
 * repository's collections (`/repos/{owner}/{repo}/releases`, `…/pulls/{pull_number}/reviews`):
 * a release made by the authenticated user, a draft unpublished (`published_at: null`) until an
 * update makes it public, its URLs at its id and tag; a review's `state` from the `event` sent
 * (`APPROVE`: `APPROVED`, `REQUEST_CHANGES`: `CHANGES_REQUESTED`, `COMMENT`: `COMMENTED`, none:
 * `PENDING`), submitted at once unless pending (a pull request's `head` and `base`: pulls.ts).
 * A release's `upload_url` is at the twin's own root as the request that made it reached it (so
 * Octokit's `uploadReleaseAsset({ url: release.upload_url, … })` uploads to the twin: assets.ts).
 *
 * A tag has one published release, as GitHub's: `GET …/releases/tags/{tag}` answers it (a draft is
 * never found by its tag: GitHub's "Get a published release"), and a release made or changed to be
 * published at a tag another published release has is `422` (`already_exists`, `tag_name`); a
 * draft may share its tag (GitHub's drafts do) until it is published.
 *
 * `GET …/releases/latest` answers the latest release as GitHub's docs define it: of the published
 * releases that are no prerelease, the one made last (`created_at`; of two made in one
 * millisecond, the later id); GitHub's 404 when there is none. `make_latest` moves it as the
 * description says: a release published with `"true"` (its default) is the latest, with
 * `"false"` leaves the latest where it was, with `"legacy"` goes back to the rule of dates; an
 * update with `"true"` makes a published release that is no prerelease the latest. Which one was
 * made so is kept per repository (`LATEST`), by tag until its id is known.
 *
 * @module
 */

import type { FlowKit, FlowState, FlowTools, OwnAnswer } from '@mockpoint/core/internal';
import { validationFailed } from './events.js';
import { GITHUB_USER } from './issues.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { tagRelease } from './refs.js';
import { shownRepo } from './repo-kept.js';
import { urlPart } from './url-part.js';

const API = 'https://api.github.com';
/** GitHub's host of uploads, a release's `upload_url` where the twin's own root is not known. */
const UPLOADS = 'https://uploads.github.com';

const RELEASES = '/repos/{owner}/{repo}/releases';
/** The records of the release `make_latest` made the latest, by repository (its scope). */
const LATEST = 'latest-releases';

/** The release `make_latest` made the latest: its id, or (made by a create, whose id is not yet known) its tag. */
interface LatestMark {
  id?: string;
  tag?: string;
}

const REVIEW_STATES: Record<string, string> = {
  APPROVE: 'APPROVED',
  REQUEST_CHANGES: 'CHANGES_REQUESTED',
  COMMENT: 'COMMENTED',
};

/** A new release's or review's state from what was sent. */
export function releaseCreated(
  template: string,
  object: Record<string, unknown>,
  sent: Record<string, unknown>,
  kit: FlowKit,
): void {
  const last = template.split('/').at(-1);
  const now = new Date(kit.now()).toISOString();
  if (last === 'releases') {
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
    const tag = urlPart(String(object.tag_name));
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

/**
 * An asset's `browser_download_url` (`…/releases/download/{tag}/{name}`) at the release's `tag_name`
 * as it now is: GitHub's follows the tag.
 */
export function downloadAtTag(url: unknown, tagName: unknown): unknown {
  const before = '/releases/download/';
  if (typeof url !== 'string') return url;
  const at = url.lastIndexOf(before);
  const name = url.lastIndexOf('/');
  if (at < 0 || name < at + before.length) return url;
  return `${url.slice(0, at + before.length)}${urlPart(String(tagName))}${url.slice(name)}`;
}

/**
 * A draft made public by an update: published now; a new `tag_name` moves its URLs at the tag, its
 * assets' download URLs too.
 */
export function releaseUpdating(object: Record<string, unknown>, tools: FlowTools): void {
  if (object.draft !== true && (object.published_at === null || object.published_at === undefined)) {
    object.published_at = new Date(tools.now()).toISOString();
  }
  if (Array.isArray(object.assets)) {
    object.assets = object.assets.map((asset: unknown) =>
      typeof asset === 'object' && asset !== null
        ? {
            ...asset,
            browser_download_url: downloadAtTag(
              (asset as Record<string, unknown>).browser_download_url,
              object.tag_name,
            ),
          }
        : asset,
    );
  }
  const tag = urlPart(String(object.tag_name));
  for (const [field, before] of [
    ['html_url', '/releases/tag/'],
    ['tarball_url', '/tarball/'],
    ['zipball_url', '/zipball/'],
  ] as const) {
    const url = object[field];
    const at = typeof url === 'string' ? url.lastIndexOf(before) : -1;
    if (at >= 0) object[field] = `${String(url).slice(0, at + before.length)}${tag}`;
  }
}

/** GitHub's refusal of a second published release of one tag. */
const TAG_TAKEN = {
  error: validationFailed('already_exists', [{ resource: 'Release', code: 'already_exists', field: 'tag_name' }]),
};

/** Whether `one` can be the latest: published and no prerelease ("Drafts and prereleases cannot be set as latest"). */
function canBeLatest(one: Record<string, unknown>): boolean {
  return one.draft !== true && one.prerelease !== true && typeof one.published_at === 'string';
}

/**
 * Of `releases`, the latest: the one `make_latest` made so (`mark`) while it can be, else as GitHub's
 * docs define it: published, no prerelease, made last.
 */
function latestRelease(
  releases: readonly Record<string, unknown>[],
  mark: LatestMark | undefined,
): Record<string, unknown> | undefined {
  const marked = releases.find((one) =>
    mark?.id !== undefined ? String(one.id) === mark.id : mark?.tag !== undefined && one.tag_name === mark.tag,
  );
  if (marked !== undefined && canBeLatest(marked)) return marked;
  let latest: Record<string, unknown> | undefined;
  let at: [number, number] = [Number.NEGATIVE_INFINITY, -1];
  for (const one of releases) {
    if (!canBeLatest(one)) continue;
    const mine: [number, number] = [Date.parse(String(one.created_at)) || 0, Number(one.id) || 0];
    if (mine[0] > at[0] || (mine[0] === at[0] && mine[1] > at[1])) [latest, at] = [one, mine];
  }
  return latest;
}

/**
 * A repository's releases by tag: `GET …/releases/tags/{tag}` (its published release, else GitHub's
 * 404), `GET …/releases/latest` ({@link latestRelease}, else GitHub's 404), and a create or update
 * that would publish a second release of a tag refused; `undefined`: the collections' (or
 * another's) to answer.
 */
export const githubReleases: RepoOperation = async (matched, sent, state, place) => {
  const { method, template } = matched.op;
  const published = async (tag: unknown, other?: string) =>
    (await state.objects(RELEASES, place.values)).find(
      (one) => one.draft !== true && one.tag_name === tag && String(one.id) !== other,
    );
  if (template === `${RELEASES}/tags/{tag}` && method === 'GET') {
    const found = await published(matched.values.tag ?? '');
    if (found !== undefined) return { status: 200, body: found };
    // With `unseen: "examples"`, a tag never released answers the document's example.
    return state.examples ? undefined : { error: NOT_FOUND };
  }
  const mark = async () => (await state.read<LatestMark>(LATEST)).get(place.scope);
  if (template === `${RELEASES}/latest` && method === 'GET') {
    const found = latestRelease(await state.objects(RELEASES, place.values), await mark());
    if (found !== undefined) return { status: 200, body: found };
    return state.examples ? undefined : { error: NOT_FOUND };
  }
  if (template === RELEASES && method === 'POST') {
    const { tag_name: tag, draft } = sent.body;
    if (typeof tag !== 'string' || draft === true) return undefined;
    if ((await published(tag)) !== undefined) return TAG_TAKEN;
    const untag = await tagRelease(state, place, tag, sent.body.target_commitish);
    return withUndo(await latestMade(sent.body, tag, state, place, await mark()), place, untag);
  }
  if (template === `${RELEASES}/{release_id}` && method === 'PATCH') {
    const id = matched.values.release_id ?? '';
    const release = (await state.objects(RELEASES, place.values)).find((one) => String(one.id) === id);
    if (release === undefined) return undefined;
    const tag = typeof sent.body.tag_name === 'string' ? sent.body.tag_name : release.tag_name;
    const draft = typeof sent.body.draft === 'boolean' ? sent.body.draft : release.draft === true;
    if (!draft && (await published(tag, id)) !== undefined) return TAG_TAKEN;
    // Published (made so now, or at a new tag): its tag is made, where it is not yet.
    const target = sent.body.target_commitish ?? release.target_commitish;
    const untag = draft || typeof tag !== 'string' ? undefined : await tagRelease(state, place, tag, target);
    const had = await mark();
    const prerelease = typeof sent.body.prerelease === 'boolean' ? sent.body.prerelease : release.prerelease === true;
    let next = had;
    // Marked by its tag when made: by its id from now on, which a new `tag_name` does not move.
    if (had?.id === undefined && had?.tag !== undefined && had.tag === release.tag_name) next = { id };
    if (sent.body.make_latest === 'true' && !draft && !prerelease) next = { id };
    if (sent.body.make_latest === 'legacy') next = undefined;
    if (next === had) return withUndo(undefined, place, untag);
    await state.keep(LATEST, place.scope, next);
    return withUndo({ values: place.values, refused: () => state.keep(LATEST, place.scope, had) }, place, untag);
  }
  return undefined;
};

/** `answered` (the collections' answer) undoing the tag a release made too, when the change is refused. */
function withUndo(
  answered: OwnAnswer | undefined,
  place: RepoPlace,
  untag: (() => Promise<void>) | undefined,
): OwnAnswer | undefined {
  if (untag === undefined) return answered;
  if (answered === undefined) return { values: place.values, refused: untag };
  if (!('values' in answered)) return answered;
  const { refused } = answered;
  return {
    ...answered,
    refused: async () => {
      await refused?.();
      await untag();
    },
  };
}

/**
 * What a new published release's `make_latest` makes the latest: itself (`"true"`, the default,
 * unless a prerelease), the latest before it (`"false"`: kept as it is), or the rule of dates
 * (`"legacy"`); kept before the create, and put back when the create is refused.
 */
async function latestMade(
  body: Record<string, unknown>,
  tag: string,
  state: FlowState,
  place: RepoPlace,
  had: LatestMark | undefined,
): Promise<OwnAnswer | undefined> {
  let next: LatestMark | undefined = had;
  if (body.make_latest === 'legacy') next = undefined;
  else if (body.make_latest === 'false') {
    const before = latestRelease(await state.objects(RELEASES, place.values), had);
    next = before === undefined ? had : { id: String(before.id) };
  } else if (body.prerelease !== true) next = { tag };
  if (next === had) return undefined;
  await state.keep(LATEST, place.scope, next);
  return { values: place.values, refused: () => state.keep(LATEST, place.scope, had) };
}
