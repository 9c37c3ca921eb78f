/**
 * A cancellable pause for the page's retry loops.
 *
 * @module
 */

/**
 * Resolves after `ms`, or at once when `signal` aborts. Either way it leaves no
 * listener on `signal` behind, so a loop that retries for hours with one signal
 * does not pile up listeners.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
