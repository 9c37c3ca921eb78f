/**
 * Which endpoint holds which gRPC service, and each name's server, in front of
 * the store like the route tables: a call to `/{package.Service}/{Method}`
 * finds its name here, and a name's definitions are compiled once per stored
 * version. Built asynchronously (the `.proto` sources parsed in a worker), it
 * is registered with the compiled settings (compiled-settings.ts
 * `BuiltSettings`): the one forget of a change to a name (here or, on a shared
 * store, in another process) forgets what was built of its definitions too.
 *
 * @module
 */
import type { FileRegistry } from '@bufbuild/protobuf';
import type { GrpcRouting } from '../grpc/grpc-reply.js';
import type { GrpcServer } from '../grpc/grpc-server.js';
import { inlineProtoCompiler, type ProtoCompiler } from '../grpc/proto-compiler.js';
import type { GrpcView } from '../grpc/reflection.js';
import type { EndpointStore } from '../store/store.js';
import type { BuiltSettings } from './compiled-settings.js';

/** The limits a call's server applies (the settings of the same names). */
export interface GrpcCallLimits {
  /** The largest request message, in bytes. */
  maxGrpcMessageBytes: number;
  /** The most messages a client may send on one call. */
  maxGrpcStreamMessages: number;
  /** The most bytes of a client stream's messages, held until it ends (as a Fetch body is bounded). */
  maxBodyBytes: number;
}

export class GrpcCatalog implements BuiltSettings {
  readonly #store: EndpointStore;
  /** Service full name → the name that holds it; built on first use, dropped at any change. */
  #owners: Promise<Map<string, string>> | undefined;
  /** The names that hold definitions, in the store's order (read with {@link #owners}). */
  #held: string[] = [];
  /** A name's registry (`null`: it has no definitions), built on first use. */
  readonly #registries = new Map<string, Promise<FileRegistry | null>>();
  /** A name's server (`null`: it has no definitions), built on first call. */
  readonly #servers = new Map<string, Promise<GrpcServer | null>>();
  /** The server of the daemon's own services (health, reflection: docs/grpc.md), built on first call. */
  #daemon: Promise<GrpcServer> | undefined;

  /** The routing of a name's calls (its routes with a `grpc` answer), set by the app; absent: schema mode only. */
  routing: ((name: string) => GrpcRouting) | undefined;

  /** Who parses `.proto` sources (a worker thread on the daemon). */
  readonly compiler: ProtoCompiler;

  constructor(store: EndpointStore, compiler: ProtoCompiler = inlineProtoCompiler()) {
    this.#store = store;
    this.compiler = compiler;
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
    const names = await this.#store.settingNames('grpc');
    this.#held = names;
    if (names.length === 0) return owners;
    const { decodeDefinitions } = await import('../grpc/definitions.js');
    for (const name of names) {
      const text = await this.#store.getSetting('grpc', name);
      if (text === undefined) continue;
      for (const service of decodeDefinitions(text).services) if (!owners.has(service)) owners.set(service, name);
    }
    return owners;
  }

  /**
   * @internal Not in the published declarations: its type is Connect's (whose
   * declarations need the DOM's `HeadersInit`), which a user who never touches
   * gRPC must not need (`test/published-types.test.ts` of @mockpoint/vitest).
   *
   * The server of `name`'s definitions (`null` when it has none), within
   * `limits`. It is built once and kept: every caller passes the app's limits
   * (the same ones), so whichever builds it first, the calls get them.
   */
  server(name: string, limits: GrpcCallLimits): Promise<GrpcServer | null> {
    let server = this.#servers.get(name);
    if (server === undefined) {
      server = this.#build(name, limits);
      this.#servers.set(name, server);
      server.catch(() => this.#servers.delete(name));
    }
    return server;
  }

  async #build(name: string, limits: GrpcCallLimits): Promise<GrpcServer | null> {
    const [registry, { createGrpcServer }] = await Promise.all([this.registry(name), import('../grpc/grpc-server.js')]);
    if (registry === null) return null;
    const bounds = {
      readMaxBytes: limits.maxGrpcMessageBytes,
      maxStreamMessages: limits.maxGrpcStreamMessages,
      maxHeldBytes: limits.maxBodyBytes,
    };
    return createGrpcServer(registry, bounds, this.routing?.(name));
  }

  /** The registry of `name`'s definitions (`null` when it has none), compiled once per stored version. */
  registry(name: string): Promise<FileRegistry | null> {
    let registry = this.#registries.get(name);
    if (registry === undefined) {
      registry = this.#compile(name);
      this.#registries.set(name, registry);
      registry.catch(() => this.#registries.delete(name));
    }
    return registry;
  }

  async #compile(name: string): Promise<FileRegistry | null> {
    const text = await this.#store.getSetting('grpc', name);
    if (text === undefined) return null;
    const { decodeDefinitions, registryOf } = await import('../grpc/definitions.js');
    const { services: _services, ...input } = decodeDefinitions(text);
    return registryOf(input, this.compiler);
  }

  /**
   * @internal Not in the published declarations (see {@link server}).
   *
   * The server of the daemon's own services (health, reflection), answering
   * from the definitions held now; the caller answers with it only while some
   * name holds definitions.
   */
  daemonServer(limits: GrpcCallLimits): Promise<GrpcServer> {
    if (this.#daemon === undefined) {
      const built = this.#buildDaemon(limits.maxGrpcMessageBytes, limits.maxGrpcStreamMessages);
      this.#daemon = built;
      built.catch(() => {
        if (this.#daemon === built) this.#daemon = undefined;
      });
    }
    return this.#daemon;
  }

  async #buildDaemon(readMaxBytes: number, maxStreamMessages?: number): Promise<GrpcServer> {
    const [{ daemonRegistry, DAEMON_SERVICES }, { createDaemonServer }] = await Promise.all([
      import('../grpc/daemon-protos.js'),
      import('../grpc/daemon-server.js'),
    ]);
    const own = await daemonRegistry();
    const view: GrpcView = {
      services: async () => {
        const held = [...(await this.owners()).keys()];
        return [...held, ...DAEMON_SERVICES.filter((service) => !held.includes(service))];
      },
      registries: async () => {
        await this.owners();
        const registries = await Promise.all(this.#held.map((name) => this.registry(name)));
        return [...registries.filter((registry) => registry !== null), own];
      },
    };
    return createDaemonServer(own, view, readMaxBytes, maxStreamMessages);
  }

  /** Forgets what was built of `name`'s definitions (and which names hold which services); by CompiledSettings.forget. */
  forget(name: string): void {
    this.#owners = undefined;
    this.#registries.delete(name);
    this.#servers.delete(name);
  }

  forgetAll(): void {
    this.#owners = undefined;
    this.#registries.clear();
    this.#servers.clear();
  }
}
