/**
 * A release's assets as GitHub keeps them (issue #73; its REST reference, "Release assets"), per
 * repository (twin-own.ts):
 *
 * - `POST …/releases/{release_id}/assets?name=…&label=…` (the release's `upload_url`, releases.ts)
 *   takes the body's bytes as the asset: `201` with it, `state: "uploaded"`, its `content_type` the
 *   request's, `size` the bytes', `digest` their SHA-256, `download_count: 0`, the twin's user its
 *   `uploader`; the name as GitHub makes it (each run of characters but letters, digits, `.`, `-`,
 *   `_`, `+` a `.`; no leading or trailing `.`). A second asset of one name on a release is `422`
 *   (`already_exists`), as is a name missing. The release's `assets` lists each.
 * - `GET …/releases/{release_id}/assets` lists them, oldest first; `GET …/releases/assets/{asset_id}`
 *   answers one, or its bytes with `Accept: application/octet-stream`; `PATCH` changes its `name`
 *   and `label`; `DELETE` removes it. Once its release is deleted, none is found.
 *
 * The bytes are kept with the asset, held to the limits of a collection write as a file's content is
 * (contents.ts), and a request's body to the daemon's most bytes.
 *
 * @module
 */
import type { FlowError, FlowState, MatchedOperation, OwnAnswer } from '@mockpoint/core/internal';
import { validationFailed } from './events.js';
import { GITHUB_USER } from './issues.js';
import { nodeId } from './node-ids.js';
import { NOT_FOUND } from './not-found.js';
import type { RepoOperation, RepoPlace } from './pushes.js';
import { downloadAtTag } from './releases.js';
import { apiOf } from './statuses.js';
import { urlPart } from './url-part.js';

const RELEASES = '/repos/{owner}/{repo}/releases';
const UPLOAD = `${RELEASES}/{release_id}/assets`;
const ASSET = `${RELEASES}/assets/{asset_id}`;
const ASSET_KIND = 'release-assets';
const ASSET_NUMBERS = 'release-asset-numbers';

/** An asset kept: its repository, its release's id, the asset as answered, its bytes in base64. */
interface AssetRecord {
  scope: string;
  release: string;
  asset: Record<string, unknown>;
  content: string;
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function base64(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(text);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** The name GitHub makes of the one sent: each run of other characters a `.`, none leading or trailing. */
export function assetName(sent: string): string {
  // Bounded first, and the dots at its ends cut by a walk, not a pattern (`\.+$` tried at each of
  // many dots is quadratic).
  const named = sent.slice(0, 1024).replace(/[^A-Za-z0-9._+-]+/g, '.');
  let start = 0;
  let end = named.length;
  while (start < end && named[start] === '.') start++;
  while (end > start && named[end - 1] === '.') end--;
  return named.slice(start, end).slice(0, 255);
}

function refused(code: string, field: string, message?: string): { error: FlowError } {
  return {
    error: validationFailed(code, [{ resource: 'ReleaseAsset', code, field, ...(message ? { message } : {}) }]),
  };
}

/** The live release `id` of the repository, as kept. */
async function releaseOf(state: FlowState, place: RepoPlace, id: string): Promise<Record<string, unknown> | undefined> {
  return (await state.objects(RELEASES, place.values)).find((one) => String(one.id) === id);
}

async function assetsOf(state: FlowState, place: RepoPlace, release: string): Promise<[string, AssetRecord][]> {
  return [...(await state.read<AssetRecord>(ASSET_KIND))].filter(
    ([, record]) => record.scope === place.scope && record.release === release,
  );
}

/** The asset as answered: its `browser_download_url` at its release's tag as it now is (an update may have moved it). */
function atTag(asset: Record<string, unknown>, release: Record<string, unknown>): Record<string, unknown> {
  return { ...asset, browser_download_url: downloadAtTag(asset.browser_download_url, release.tag_name) };
}

/** The release's `assets` as they now are. */
async function listed(state: FlowState, place: RepoPlace, release: string): Promise<void> {
  const assets = (await assetsOf(state, place, release)).map(([, record]) => record.asset);
  await state.amend(RELEASES, place.values, release, (object) => {
    object.assets = assets.map((asset) => atTag(asset, object));
  });
}

async function upload(
  release: Record<string, unknown>,
  sent: Parameters<RepoOperation>[1],
  state: FlowState,
  place: RepoPlace,
): Promise<OwnAnswer> {
  const asked = typeof sent.query.name === 'string' ? sent.query.name : '';
  const name = assetName(asked);
  if (name === '') return refused('missing_field', 'name');
  const releaseId = String(release.id);
  const taken = (await assetsOf(state, place, releaseId)).some(([, record]) => record.asset.name === name);
  if (taken) return refused('already_exists', 'name');
  // Numbered in the order made, never again after a deletion (the last number kept apart).
  const id = ((await state.read<{ last: number }>(ASSET_NUMBERS)).get('last')?.last ?? 0) + 1;
  await state.keep(ASSET_NUMBERS, 'last', { last: id });
  const { full, api } = apiOf(place);
  const bytes = sent.bytes;
  const now = new Date(state.now()).toISOString();
  const tag = urlPart(String(release.tag_name));
  const asset = {
    url: `${api}/releases/assets/${id}`,
    browser_download_url: `https://github.com/${full}/releases/download/${tag}/${urlPart(name)}`,
    id,
    node_id: nodeId('RA', id),
    name,
    label: typeof sent.query.label === 'string' ? sent.query.label : '',
    state: 'uploaded',
    content_type: sent.header('content-type')?.split(',')[0]?.trim() || 'application/octet-stream',
    size: bytes.length,
    digest: `sha256:${hex(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes)))}`,
    download_count: 0,
    created_at: now,
    updated_at: now,
    uploader: GITHUB_USER,
  };
  const record: AssetRecord = { scope: place.scope, release: releaseId, asset, content: base64(bytes) };
  await state.keep(ASSET_KIND, String(id), record);
  await listed(state, place, releaseId);
  return { status: 201, body: asset };
}

async function change(
  id: string,
  record: AssetRecord,
  release: Record<string, unknown>,
  sent: Record<string, unknown>,
  state: FlowState,
  place: RepoPlace,
): Promise<OwnAnswer> {
  const asset = atTag(record.asset, release);
  if (sent.name !== undefined) {
    const name = typeof sent.name === 'string' ? assetName(sent.name) : '';
    if (name === '') return refused('invalid', 'name', 'name must be a file name');
    const others = (await assetsOf(state, place, record.release)).filter(([key]) => key !== id);
    if (others.some(([, one]) => one.asset.name === name)) return refused('already_exists', 'name');
    asset.name = name;
    const url = String(asset.browser_download_url);
    asset.browser_download_url = `${url.slice(0, url.lastIndexOf('/') + 1)}${urlPart(name)}`;
  }
  if (sent.label !== undefined) asset.label = typeof sent.label === 'string' ? sent.label : '';
  if (sent.state !== undefined) {
    if (sent.state !== 'uploaded' && sent.state !== 'open') {
      return refused('invalid', 'state', 'state must be one of uploaded, open');
    }
    asset.state = sent.state;
  }
  asset.updated_at = new Date(state.now()).toISOString();
  await state.keep(ASSET_KIND, id, { ...record, asset });
  await listed(state, place, record.release);
  return { status: 200, body: asset };
}

/** A release's assets; `undefined`: not theirs. */
export const githubAssets: RepoOperation = async (matched: MatchedOperation, sent, state, place) => {
  const { method, template } = matched.op;
  if (template !== UPLOAD && template !== ASSET) return undefined;
  // Below a repository never made (a read), or with `unseen: "examples"` of a release never made: the document's.
  if (place.repository === undefined) return undefined;
  if (template === UPLOAD) {
    const release = await releaseOf(state, place, matched.values.release_id ?? '');
    if (release === undefined) return state.examples ? undefined : { error: NOT_FOUND };
    if (method === 'POST') return upload(release, sent, state, place);
    if (method !== 'GET') return undefined;
    const assets = await assetsOf(state, place, String(release.id));
    return { list: assets.map(([, record]) => atTag(record.asset, release)) };
  }
  const id = matched.values.asset_id ?? '';
  const record = (await state.read<AssetRecord>(ASSET_KIND)).get(id);
  const release = record?.scope === place.scope ? await releaseOf(state, place, record.release) : undefined;
  if (record === undefined || release === undefined) return state.examples ? undefined : { error: NOT_FOUND };
  if (method === 'GET') {
    if (!(sent.header('accept') ?? '').includes('application/octet-stream')) {
      return { status: 200, body: atTag(record.asset, release) };
    }
    const type = String(record.asset.content_type);
    return { status: 200, bytes: fromBase64(record.content), headers: { 'content-type': type } };
  }
  if (method === 'PATCH') return change(id, record, release, sent.body, state, place);
  if (method !== 'DELETE') return undefined;
  await state.keep(ASSET_KIND, id, undefined);
  await listed(state, place, record.release);
  return { status: 204 };
};
