/**
 * The Sentry part of the page: a separate chunk, imported only when the page
 * has a reporting DSN (see report.ts).
 *
 * @module
 */
import { captureException, init } from '@sentry/browser';

/** Starts the Sentry browser SDK; returns the function that sends an error. */
export function initReporting(options: { dsn: string; release: string }): (error: unknown) => void {
  init({ dsn: options.dsn, release: options.release, environment: 'web' });
  return (error) => {
    captureException(error);
  };
}
