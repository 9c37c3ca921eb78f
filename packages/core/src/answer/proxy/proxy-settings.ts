/**
 * What proxy routes may reach, and how, for one app: the allowed hosts and the
 * upstream transport. The transport may be swapped once by the runtime adapter
 * that serves the app (Node's checks the addresses a name resolves to).
 *
 * @module
 */
import { fetchUpstream, type Upstream } from './upstream.js';

/** Options for {@link ProxySettings}. */
export interface ProxySettingsOptions {
  /** Hosts proxy routes may forward to; empty: proxying is off. @default [] */
  allowHosts?: readonly string[];
  /** How requests are sent; a given one is never replaced by an adapter's. @default fetchUpstream */
  upstream?: Upstream;
  /** Most bytes of an upstream answer a recording keeps (a longer one is passed on, not recorded). */
  maxRecordBytes: number;
  /** Routes one name may have: a recording that would pass it is not kept. */
  maxRoutes: number;
}

export class ProxySettings {
  readonly allowHosts: readonly string[];
  readonly maxRecordBytes: number;
  readonly maxRoutes: number;
  #upstream: Upstream;
  readonly #given: boolean;

  constructor(options: ProxySettingsOptions) {
    this.allowHosts = options.allowHosts ?? [];
    this.maxRecordBytes = options.maxRecordBytes;
    this.maxRoutes = options.maxRoutes;
    this.#upstream = options.upstream ?? fetchUpstream;
    this.#given = options.upstream !== undefined;
  }

  get upstream(): Upstream {
    return this.#upstream;
  }

  /** The runtime's own transport, unless the app was given one. */
  preferUpstream(upstream: Upstream): void {
    if (!this.#given) this.#upstream = upstream;
  }
}
