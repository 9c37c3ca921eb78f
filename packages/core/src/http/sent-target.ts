/**
 * The target a Fetch request's client sent it at, kept where the app moves the request to another
 * URL (a namespace's `/ns/{ns}` taken off its path): what a twin's own root is read from
 * (`RecordedRequest.sent`), as the Node listener keeps it (adapter/node/endpoint-request.ts).
 *
 * @module
 */
import { urlTarget } from '../api/endpoint-target.js';

/** The target each moved request's client sent, by the request moved. */
const SENT = new WeakMap<Request, string>();

/** `request` at `url`, knowing the target its client sent it at. */
export function movedRequest(request: Request, url: string | URL): Request {
  const moved = new Request(url, request);
  SENT.set(moved, sentTarget(request));
  return moved;
}

/** The target `request`'s client sent: its URL's path and query, or where it was before the app moved it. */
export function sentTarget(request: Request, url: string = request.url): string {
  return SENT.get(request) ?? urlTarget(url);
}
