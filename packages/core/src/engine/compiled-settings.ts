/**
 * The per-name settings the request path reads compiled — a signature check,
 * a chaos plan, a GraphQL schema built — each kept in front of the store as the
 * response cache is: read and compiled once per change, `null` remembering
 * "none", withdrawn by a write here or another replica's (`ReadTokens`). One
 * table keyed by the setting's kind (settings/name-settings.ts declares the
 * kinds): a compiled setting more is one entry of {@link COMPILERS}-like
 * declarations given to {@link CompiledSettings}, not fields and methods more.
 * What is built of a setting asynchronously, outside this table (a name's gRPC
 * servers, compiled in a worker: grpc-catalog.ts), is registered here as
 * {@link BuiltSettings}, so that the one `forget` of a change forgets both.
 *
 * @module
 */
import type { SettingKind, StoredSetting } from '../settings/name-settings.js';
import type { EndpointStore } from '../store/store.js';
import { type NameCache, ReadTokens } from './read-tokens.js';

/** A cache of one kind's compiled settings by name (`null`: the name has none). */
export interface CompiledCache<T> extends NameCache<T | null> {
  get(name: string): T | null | undefined;
  /** Whether some name has a compiled setting here (not only "none"). */
  holdsAny?(): boolean;
}

/** How one kind of setting is compiled, and the cache it is kept in. */
export interface Compiler<K extends SettingKind, T> {
  readonly cache: CompiledCache<T>;
  compile(value: StoredSetting<K>, name: string): T;
}

/** The compilers of some kinds: each kind's compiled type. */
export type Compilers<C> = { readonly [K in keyof C & SettingKind]: Compiler<K, C[K]> };

/**
 * What is built of one kind of setting elsewhere, asynchronously, and kept until
 * the setting changes (engine/grpc-catalog.ts): forgotten with the compiled settings.
 */
export interface BuiltSettings {
  /** Forgets what was built of `name`'s setting. */
  forget(name: string): void;
  forgetAll(): void;
}

/** Each kind's compiled settings in front of `store`. */
export class CompiledSettings<C> {
  readonly #store: EndpointStore;
  readonly #compilers: Compilers<C>;
  readonly #reading = new Map<keyof C & SettingKind, ReadTokens<unknown>>();
  /** What is built of a kind elsewhere ({@link register}), by kind. */
  readonly #built = new Map<SettingKind, BuiltSettings>();

  /** `cacheable`: whether a read may fill a cache now (a shared store must be delivering changes). */
  constructor(store: EndpointStore, compilers: Compilers<C>, cacheable: () => boolean) {
    this.#store = store;
    this.#compilers = compilers;
    for (const kind of Object.keys(compilers) as (keyof C & SettingKind)[]) {
      this.#reading.set(kind, new ReadTokens(compilers[kind].cache as NameCache<unknown>, cacheable));
    }
  }

  /** The compiled setting of `name` if known here: `null` for none, `undefined` when not read yet. */
  get<K extends keyof C & SettingKind>(kind: K, name: string): C[K] | null | undefined {
    return this.#compilers[kind].cache.get(name);
  }

  /** The compiled setting of `name` (`null` when it has none), read from the store and compiled once per change. */
  read<K extends keyof C & SettingKind>(kind: K, name: string): Promise<C[K] | null> {
    const compiler = this.#compilers[kind];
    return (this.#reading.get(kind) as ReadTokens<C[K] | null>).read(name, async () => {
      const value = await this.#store.getSetting(kind, name);
      return value === undefined ? null : compiler.compile(value, name);
    });
  }

  /** Whether some name has a compiled setting of `kind` here (a chaos plan holds its sequence). */
  holdsAny(kind: keyof C & SettingKind): boolean {
    const { cache } = this.#compilers[kind];
    if (cache.holdsAny === undefined) throw new TypeError(`the ${kind} cache cannot tell whether it holds any`);
    return cache.holdsAny();
  }

  /** Whether `kind` compiles settings here (a kind without a compiler is read from the store as it is). */
  compiles(kind: SettingKind): kind is keyof C & SettingKind {
    return this.#reading.has(kind as keyof C & SettingKind);
  }

  /**
   * Has what `built` holds of `kind` forgotten with the compiled settings (by {@link forget}
   * and {@link forgetAll}): a kind built asynchronously elsewhere, as a name's gRPC servers.
   */
  register(kind: SettingKind, built: BuiltSettings): void {
    this.#built.set(kind, built);
  }

  /**
   * What this holds of `name` for `kind` (every kind without one) is forgotten, a read under
   * way withdrawn, and what is built of it elsewhere ({@link register}) forgotten too.
   */
  forget(name: string, kind?: SettingKind): void {
    if (kind !== undefined) {
      if (this.compiles(kind)) this.#reading.get(kind)?.forget(name);
      this.#built.get(kind)?.forget(name);
      return;
    }
    for (const reading of this.#reading.values()) reading.forget(name);
    for (const built of this.#built.values()) built.forget(name);
  }

  /** Everything held is forgotten, here and by what is registered. */
  forgetAll(): void {
    for (const reading of this.#reading.values()) reading.forgetAll();
    for (const built of this.#built.values()) built.forgetAll();
  }
}
