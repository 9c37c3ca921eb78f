/**
 * `node:` builtins loaded on first use, for Node's and Bun's adapters and Node's delivery sender
 * only: a module the runtime-neutral entries reach must not name them, even as types
 * (test/runtime-agnostic.test.ts), so this is apart from on-first-use.ts.
 *
 * @module
 */

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
