/**
 * A leaner start for the daemon: V8's young generation held at its first size while the
 * daemon's modules load, and let grow again once it listens.
 *
 * Loading the modules leaves many objects alive through several scavenges (each module's
 * functions, closures and tables), and V8 grows the young generation for that: its two
 * semi-spaces reach 8 MB each (16 MB of the heap, 1–4 MB of it in use once started), and are
 * given back only after some idle seconds, sometimes never. That growth buys nothing: start-up
 * allocates little that dies young. With V8's growth factor at 1 while the modules load, the
 * semi-spaces stay at their first size (1 MB); the factor back at V8's default once the daemon
 * listens, and a busy hot path grows the young generation as before
 * (docs/performance.md, "A plain start's young generation").
 *
 * Node only: `v8.setFlagsFromString` is V8's, and Bun (the single executable) has its own heap.
 *
 * @module
 */
import { setFlagsFromString } from 'node:v8';

/** V8's own default for `--semi-space-growth-factor` (`node --v8-options`). */
const DEFAULT_GROWTH_FACTOR = 2;

/**
 * Holds the young generation at its size until the returned function is called (once the daemon
 * listens), which restores V8's default growth. A no-op off Node.
 * @example const grown = holdYoungGeneration(); await startServer(config); grown();
 */
export function holdYoungGeneration(): () => void {
  if (process.versions.bun !== undefined) return () => {};
  setFlagsFromString('--semi-space-growth-factor=1');
  return () => setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
}
