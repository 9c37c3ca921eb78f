/**
 * Which endpoint holds which gRPC service, and each name's server, in front of
 * the store like the route tables: a call to `/{package.Service}/{Method}`
 * finds its name here, and a name's definitions are compiled once per stored
 * version. A change to a name's definitions (here or, on a shared store, in
 * another process) forgets what was built of them.
 *
 * @module
 */
import type { GrpcRouting } from '../grpc/grpc-reply.js';
import type { GrpcServer } from '../grpc/grpc-server.js';
import type { EndpointStore } from '../store/store.js';

export class GrpcCatalog {
  readonly #store: EndpointStore;
  /** Service full name → the name that holds it; built on first use, dropped at any change. */
  #owners: Promise<Map<string, string>> | undefined;
  /** A name's server (`null`: it has no definitions), built on first call. */
  readonly #servers = new Map<string, Promise<GrpcServer | null>>();

  /** The routing of a name's calls (its routes with a `grpc` answer), set by the app; absent: schema mode only. */
  routing: ((name: string) => GrpcRouting) | undefined;

  constructor(store: EndpointStore) {
    this.#store = store;
  }

  /** The services every name holds: service → name. One read of each name's definitions. */
  owners(): Promise<Map<string, string>> {
    if (this.#owners === undefined) {
      const built = this.#readOwners();
      this.#owners = built;
      built.catch(() => {
        if (this.#owners === built) this.#owners = undefined;
      });
    }
    return this.#owners;
  }

  async #readOwners(): Promise<Map<string, string>> {
    const owners = new Map<string, string>();
    const names = await this.#store.grpcNames();
    if (names.length === 0) return owners;
    const { decodeDefinitions } = await import('../grpc/definitions.js');
    for (const name of names) {
      const text = await this.#store.getGrpc(name);
      if (text === undefined) continue;
      for (const service of decodeDefinitions(text).services) if (!owners.has(service)) owners.set(service, name);
    }
    return owners;
  }

  /**
   * The server of `name`'s definitions (`null` when it has none), reading request
   * messages of at most `readMaxBytes`, at most `maxStreamMessages` on one call.
   */
  server(name: string, readMaxBytes: number, maxStreamMessages?: number): Promise<GrpcServer | null> {
    let server = this.#servers.get(name);
    if (server === undefined) {
      server = this.#build(name, readMaxBytes, maxStreamMessages);
      this.#servers.set(name, server);
      server.catch(() => this.#servers.delete(name));
    }
    return server;
  }

  async #build(name: string, readMaxBytes: number, maxStreamMessages?: number): Promise<GrpcServer | null> {
    const text = await this.#store.getGrpc(name);
    if (text === undefined) return null;
    const [{ decodeDefinitions, registryOf }, { createGrpcServer }] = await Promise.all([
      import('../grpc/definitions.js'),
      import('../grpc/grpc-server.js'),
    ]);
    const { services: _services, ...input } = decodeDefinitions(text);
    return createGrpcServer(await registryOf(input), readMaxBytes, maxStreamMessages, this.routing?.(name));
  }

  /** Forgets what was built of `name`'s definitions (and which names hold which services). */
  forget(name: string): void {
    this.#owners = undefined;
    this.#servers.delete(name);
  }

  forgetAll(): void {
    this.#owners = undefined;
    this.#servers.clear();
  }
}
