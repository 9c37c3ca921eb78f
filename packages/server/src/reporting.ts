/**
 * Server error reporting with `@sentry/node`, only when `SERVER_REPORTING_DSN` is
 * set. Without a DSN the SDK is never imported, so nothing is loaded or sent.
 *
 * The SDK is an optional peer dependency (large: its size is in docs/performance.md): it is not
 * installed with the daemon, and a DSN without it stops start-up with one line
 * naming the package to install.
 *
 * @module
 */
import { reportedUrl } from '@mockpoint/core';
import { MockpointError } from '@mockpoint/core/internal';

/** The package that reports server errors, and how to install it next to the daemon. */
export const REPORTING_PACKAGE = '@sentry/node';

/**
 * Whether this is the single executable (`pnpm binaries`): Bun runs its bundled code from a
 * virtual root, `/$bunfs/` (Windows: `/~BUN/`). It cannot load an npm package from outside.
 */
const SINGLE_EXECUTABLE = /\/(?:\$bunfs|~BUN)\//.test(import.meta.url);

/** `SERVER_REPORTING_DSN` is set but `@sentry/node` cannot be loaded. */
export class ReportingUnavailableError extends MockpointError {
  override readonly name = 'ReportingUnavailableError';
  declare readonly code: 'REPORTING_UNAVAILABLE';
  constructor(cause: unknown) {
    super(
      'REPORTING_UNAVAILABLE',
      SINGLE_EXECUTABLE
        ? `SERVER_REPORTING_DSN is set but this single executable does not include ${REPORTING_PACKAGE}: for server error reporting run mockpoint from npm (npm install -g @mockpoint/server ${REPORTING_PACKAGE}@11), or unset SERVER_REPORTING_DSN`
        : `SERVER_REPORTING_DSN is set but ${REPORTING_PACKAGE} is not installed: npm install -g ${REPORTING_PACKAGE}@11 (next to a global mockpoint; in a project: npm install ${REPORTING_PACKAGE}@11), or unset SERVER_REPORTING_DSN`,
      { cause },
    );
  }
}

/** The SDK itself is missing (not one of its own dependencies). */
function isMissingPackage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'ERR_MODULE_NOT_FOUND' &&
    String((error as Error).message).startsWith(`Cannot find package '${REPORTING_PACKAGE}'`)
  );
}

/** Reports unexpected errors; `flush` waits until queued reports are sent. */
export interface ErrorReporter {
  capture(error: unknown, request?: { method: string; url: string }): void;
  flush(timeoutMs?: number): Promise<void>;
}

/** A reporter for the given DSN, or `undefined` when reporting is off. */
export async function createReporter(dsn: string | undefined, release: string): Promise<ErrorReporter | undefined> {
  if (!dsn) return undefined;
  let Sentry: typeof import('@sentry/node');
  try {
    Sentry = await import('@sentry/node');
  } catch (error) {
    if (isMissingPackage(error)) throw new ReportingUnavailableError(error);
    throw error;
  }
  Sentry.init({ dsn, release: `mockpoint@${release}`, defaultIntegrations: false, tracesSampleRate: 0 });
  return {
    capture(error, request) {
      Sentry.withScope((scope) => {
        // Never a query string or credentials: they carry tokens and personal data.
        if (request) scope.setContext('request', { method: request.method, url: reportedUrl(request.url) });
        Sentry.captureException(error);
      });
    },
    async flush(timeoutMs = 2000) {
      await Sentry.flush(timeoutMs);
    },
  };
}
