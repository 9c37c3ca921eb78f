/**
 * Conditional requests (the profile's `etag`, docs/twins.md): a `200` answer to
 * a `GET` carries a strong `ETag` of its body, and a request whose
 * `If-None-Match` names it gets `304 Not Modified` with no body, its other
 * headers kept: what Octokit's conditional requests (`headers: { 'if-none-match': etag }`)
 * meet on GitHub.
 *
 * @module
 */
import { etagMatches, strongEtag } from '../codec/etag.js';
import type { TwinAnswer } from './twin-answer.js';

/** `answer` to a request of `method` with `ifNoneMatch`, as a conditional request is answered. */
export async function conditional(
  answer: TwinAnswer,
  method: string,
  ifNoneMatch: string | undefined,
): Promise<TwinAnswer> {
  // Bytes (a GitHub release asset's download) are answered whole, with no ETag.
  if (method !== 'GET' || answer.status !== 200 || answer.bytes !== undefined) return answer;
  const etag = await strongEtag(answer.body);
  if (!etagMatches(ifNoneMatch, etag)) return { ...answer, headers: { ...answer.headers, etag } };
  const { 'content-type': _type, ...headers } = answer.headers;
  return { status: 304, headers: { ...headers, etag }, body: '' };
}
