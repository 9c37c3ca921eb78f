/**
 * A request at `/endpoint/{name}` as the request filter sees it, parsed lazily:
 * a route that only looks at the method and path never parses the query, the
 * headers or the body.
 *
 * @module
 */

import type { States } from '../api/state-json.js';
import { toBase64 } from '../codec/base64.js';
import { jsonValueOf } from '../codec/json-value.js';
import { headerRecord } from '../codec/raw-headers.js';
import { utf8Text } from '../codec/utf8.js';
import { parseQuery, type RecordedRequest } from '../journal/journal-entry.js';
import { type FilterSubject, NOT_JSON } from '../journal/request-filter.js';
import type { SignatureMark } from '../signing/signature-settings.js';

export class RequestView implements FilterSubject {
  readonly method: string;
  readonly subpath: string;
  readonly #request: RecordedRequest;
  /** The whole body when the adapter kept it (longer than the journal's copy). */
  readonly #whole: Uint8Array | undefined;
  readonly #maxBodyBytes: number | undefined;
  #query: Record<string, string | string[]> | undefined;
  #headers: Record<string, string> | undefined;
  #body: string | undefined;
  /** The body is not UTF-8 (`#body` is its base64). */
  #binary = false;
  #json: unknown = undefined;
  #jsonRead = false;
  /** The endpoint's scenarios as the request found them, when its routes look at them (set by the routes' step). */
  state: { readonly before: States } | undefined;

  /**
   * `wholeBody`: the whole body, when it is longer than `request.body` (the
   * journal's copy) and was kept; `maxBodyBytes`: the most of a body that is
   * read, for messages about a body longer than that.
   */
  constructor(request: RecordedRequest, subpath: string, wholeBody?: Uint8Array, maxBodyBytes?: number) {
    this.method = request.method;
    this.subpath = subpath;
    this.#request = request;
    this.#whole = request.bodyTruncated ? wholeBody : undefined;
    this.#maxBodyBytes = maxBodyBytes;
  }

  get query(): Record<string, string | string[]> {
    if (this.#query === undefined) {
      const target = this.#request.target;
      const q = target.indexOf('?');
      this.#query = q === -1 ? {} : parseQuery(new URLSearchParams(target.slice(q + 1)));
    }
    return this.#query;
  }

  get rawQuery(): string {
    const target = this.#request.target;
    const q = target.indexOf('?');
    return q === -1 ? '' : target.slice(q + 1);
  }

  get headers(): Record<string, string> {
    this.#headers ??= headerRecord(this.#request.rawHeaders);
    return this.#headers;
  }

  /**
   * The body as text; bytes that are not UTF-8 as their base64, as the journal
   * keeps them (so a filter's raw-text match compares what `GET /api/journal`
   * and a HAR export show, and an empty `body` never matches them).
   */
  get body(): string {
    if (this.#body === undefined) {
      const bytes = this.#whole ?? this.#request.body;
      const text = utf8Text(bytes, this.bodyTruncated);
      this.#binary = text === undefined;
      this.#body = text ?? toBase64(bytes);
    }
    return this.#body;
  }

  get signature(): SignatureMark | undefined {
    return this.#request.signature;
  }

  /** True when only the first bytes of the body were read (it is longer than the body limit). */
  get bodyTruncated(): boolean {
    return this.#request.bodyTruncated && this.#whole === undefined;
  }

  /** How much of a body is read, in words (see {@link FilterSubject.bodyLimit}). */
  get bodyLimit(): string {
    const bytes = this.#maxBodyBytes === undefined ? '' : ` of ${this.#maxBodyBytes} bytes`;
    return `the body limit${bytes} (MOCKPOINT_MAX_BODY_BYTES), the most read of a request`;
  }

  /** The body parsed as JSON, or {@link NOT_JSON}. */
  get json(): unknown {
    if (!this.#jsonRead) {
      this.#jsonRead = true;
      this.#json = NOT_JSON;
      const body = this.body;
      const json = this.bodyTruncated || this.#binary ? undefined : jsonValueOf(body);
      if (json !== undefined) this.#json = json;
    }
    return this.#json;
  }
}
