/**
 * A request at `/endpoint/{name}` as the request filter sees it, parsed lazily:
 * a route that only looks at the method and path never parses the query, the
 * headers or the body.
 *
 * @module
 */
import { jsonTooDeep } from '../http/body.js';
import { headerRecord, parseQuery, type RecordedRequest, utf8Text } from '../journal/journal-entry.js';
import { type FilterSubject, NOT_JSON } from '../journal/request-filter.js';
import type { SignatureMark } from '../wire/signature-settings.js';

export class RequestView implements FilterSubject {
  readonly method: string;
  readonly subpath: string;
  readonly #request: RecordedRequest;
  #query: Record<string, string | string[]> | undefined;
  #headers: Record<string, string> | undefined;
  #body: string | undefined;
  #json: unknown = undefined;
  #jsonRead = false;

  constructor(request: RecordedRequest, subpath: string) {
    this.method = request.method;
    this.subpath = subpath;
    this.#request = request;
  }

  get query(): Record<string, string | string[]> {
    if (this.#query === undefined) {
      const target = this.#request.target;
      const q = target.indexOf('?');
      this.#query = q === -1 ? {} : parseQuery(new URLSearchParams(target.slice(q + 1)));
    }
    return this.#query;
  }

  get headers(): Record<string, string> {
    this.#headers ??= headerRecord(this.#request.rawHeaders);
    return this.#headers;
  }

  /** The body as text (empty when it is not UTF-8: a filter's raw-text match then fails). */
  get body(): string {
    this.#body ??= utf8Text(this.#request.body, this.#request.bodyTruncated) ?? '';
    return this.#body;
  }

  get signature(): SignatureMark | undefined {
    return this.#request.signature;
  }

  get bodyTruncated(): boolean {
    return this.#request.bodyTruncated;
  }

  /** The body parsed as JSON, or {@link NOT_JSON}. */
  get json(): unknown {
    if (!this.#jsonRead) {
      this.#jsonRead = true;
      this.#json = NOT_JSON;
      const text = this.body;
      if (text !== '' && !this.#request.bodyTruncated && !jsonTooDeep(text)) {
        try {
          this.#json = JSON.parse(text);
        } catch {
          // not JSON
        }
      }
    }
    return this.#json;
  }
}
