/**
 * A value made on its first use and kept: for what a module would otherwise make as it loads
 * (a schema, a `node:` builtin) though a plain start never uses it. Each module loaded at start
 * pays for what it makes at its top level before the first stub can be answered (issue #64,
 * docs/performance.md "Ready").
 *
 * @module
 */

/**
 * `make`'s value, made on the first call and the same value returned by every later one.
 * @example const http2 = onFirstUse(() => nodeBuiltin('node:http2')); http2().constants
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

type Builtins = {
  'node:http2': typeof import('node:http2');
  'node:https': typeof import('node:https');
  'node:tls': typeof import('node:tls');
};

/**
 * A `node:` builtin loaded now, synchronously (`process.getBuiltinModule`, Node 20.16+, Bun):
 * what only some starts use (HTTP/2, HTTPS, TLS) is loaded on first use, not with the module that
 * names it. Throws off a runtime that has none (the callers are Node's and Bun's adapters).
 */
export function nodeBuiltin<K extends keyof Builtins>(id: K): Builtins[K] {
  const load = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (load === undefined) throw new Error(`${id} cannot be loaded here: this runtime has no process.getBuiltinModule`);
  return load(id) as Builtins[K];
}
