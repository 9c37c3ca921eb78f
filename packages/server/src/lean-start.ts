/**
 * A leaner start for the daemon: V8's young generation held at its first size while the
 * daemon's modules load, and let grow again once it listens.
 *
 * Loading the modules leaves many objects alive through several scavenges (each module's
 * functions, closures and tables), and V8 grows the young generation for that: its two
 * semi-spaces reach 8 MB each (16 MB of the heap, 1–4 MB of it in use once started), and are
 * given back only after some idle seconds, sometimes never. That growth buys nothing: start-up
 * allocates little that dies young. With V8's growth factor at 1 while the modules load, the
 * semi-spaces stay at their first size (1 MB). Once the daemon listens, a busy hot path must
 * grow the young generation as before: with V8's default factor (2) it took three growths where
 * an unheld start had made them while loading, and a webhook POST load scavenged 2–2.5 × as
 * often (13–17 scavenges per 10,000 signed POSTs against 6–7.5), which read as the signed POST
 * 8 % slower. So the factor given back is 4: the first growths under load catch up in one step
 * what the hold skipped (1 → 4 → 16 MB semi-spaces), and an idle daemon stays at 1 MB
 * (docs/performance.md, "A plain start's young generation").
 *
 * Node only: `v8.setFlagsFromString` is V8's, and Bun (the single executable) has its own heap.
 *
 * @module
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';

/**
 * The growth factor once the daemon listens: twice V8's own default (2, `node --v8-options`), so
 * that a load grows the young generation to where an unheld start had it (see above).
 */
const LISTENING_GROWTH_FACTOR = 4;

/**
 * Holds the young generation at its size until the returned function is called (once the daemon
 * listens), and then until the next scavenge has run, which lets it grow again, quickly. That next
 * scavenge sweeps what start-up left (its last modules' and the store's objects, most of them
 * alive for good): let grow, it grew the young generation fourfold for those survivors alone,
 * in about one start of three, as the phase of the start's allocations fell. A load's first
 * scavenge is thus held too; the ones after it grow as before. A no-op off Node.
 * @example const grown = holdYoungGeneration(); await startServer(config); grown();
 */
export function holdYoungGeneration(): () => void {
  if (process.versions.bun !== undefined) return () => {};
  setFlagsFromString('--semi-space-growth-factor=1');
  return () => {
    const observer = new PerformanceObserver((list) => {
      const scavenged = list
        .getEntries()
        .some(
          (entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR,
        );
      if (!scavenged) return;
      observer.disconnect();
      setFlagsFromString(`--semi-space-growth-factor=${LISTENING_GROWTH_FACTOR}`);
    });
    observer.observe({ entryTypes: ['gc'] });
  };
}
