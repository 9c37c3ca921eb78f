/**
 * What every handle of one endpoint name holds (`api()`, `add()` and
 * `socket()` return one): the name, its URL, and the client its calls go through.
 *
 * @module
 */
import type { MockpointClient } from '@mockpoint/core';

export abstract class NameHandle {
  readonly name: string;
  readonly url: string;
  readonly #client: MockpointClient;

  constructor(client: MockpointClient, name: string, url: string) {
    this.#client = client;
    this.name = name;
    this.url = url;
  }

  /** The client (an accessor, not a field: a handle logs and diffs as its name and URL). */
  protected get client(): MockpointClient {
    return this.#client;
  }
}
