/**
 * Error reporting switch. When the page carries
 * `<meta name="mockpoint-reporting-dsn">` (set from CLIENT_REPORTING_DSN), the
 * Sentry chunk is loaded by dynamic import and errors go to that DSN. Without
 * it nothing is loaded and {@link report} only logs.
 *
 * @module
 */

import { VERSION } from '@mockpoint/core/client';

const META = 'meta[name="mockpoint-reporting-dsn"]';

let sink: ((error: unknown) => void) | undefined;
let pending: unknown[] | undefined;

/** Reports an unexpected error (a bug in the page, not an API answer). */
export function report(error: unknown): void {
  console.error(error);
  if (sink) sink(error);
  else pending?.push(error);
}

/** The DSN the server put in the page, if any. */
export function reportingDsn(): string | undefined {
  const content = document.querySelector<HTMLMetaElement>(META)?.content.trim();
  return content ? content : undefined;
}

/**
 * Starts reporting when the page has a DSN. Errors thrown before the Sentry
 * chunk has loaded are kept and sent once it has.
 */
export function startReporting(): void {
  const dsn = reportingDsn();
  if (dsn === undefined) return;
  pending = [];
  const onError = (event: ErrorEvent) => pending?.push(event.error ?? new Error(event.message));
  const onRejection = (event: PromiseRejectionEvent) => pending?.push(event.reason);
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  import('./reporting.js').then(
    ({ initReporting }) => {
      removeEventListener('error', onError);
      removeEventListener('unhandledrejection', onRejection);
      sink = initReporting({ dsn, release: `mockpoint@${VERSION}` });
      for (const error of pending ?? []) sink(error);
      pending = undefined;
    },
    (error: unknown) => console.warn('mockpoint: error reporting could not start:', error),
  );
}
