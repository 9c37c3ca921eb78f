/**
 * Server error reporting with `@sentry/node`, only when `SERVER_REPORTING_DSN` is
 * set. Without a DSN the SDK is never imported, so nothing is loaded or sent.
 *
 * @module
 */

/** Reports unexpected errors; `flush` waits until queued reports are sent. */
export interface ErrorReporter {
  capture(error: unknown, request?: { method: string; url: string }): void;
  flush(timeoutMs?: number): Promise<void>;
}

/** A reporter for the given DSN, or `undefined` when reporting is off. */
export async function createReporter(dsn: string | undefined, release: string): Promise<ErrorReporter | undefined> {
  if (!dsn) return undefined;
  const Sentry = await import('@sentry/node');
  Sentry.init({ dsn, release: `mockpoint@${release}`, defaultIntegrations: false, tracesSampleRate: 0 });
  return {
    capture(error, request) {
      Sentry.withScope((scope) => {
        if (request) scope.setContext('request', { method: request.method, url: request.url });
        Sentry.captureException(error);
      });
    },
    async flush(timeoutMs = 2000) {
      await Sentry.flush(timeoutMs);
    },
  };
}
