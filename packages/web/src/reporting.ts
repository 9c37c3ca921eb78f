/**
 * The Sentry part of the page: a separate chunk, imported only when the page
 * has a reporting DSN (see report.ts).
 *
 * @module
 */
import { reportedUrl } from '@mockpoint/core/client';
import { captureException, init } from '@sentry/browser';

/** Starts the Sentry browser SDK; returns the function that sends an error. */
export function initReporting(options: { dsn: string; release: string }): (error: unknown) => void {
  init({
    dsn: options.dsn,
    release: options.release,
    environment: 'web',
    // The page's address and the requests it made go without query strings or credentials.
    beforeSend(event) {
      if (event.request?.url !== undefined) event.request.url = reportedUrl(event.request.url);
      return event;
    },
    beforeBreadcrumb(breadcrumb) {
      const url = breadcrumb.data?.url;
      if (typeof url === 'string' && breadcrumb.data !== undefined) breadcrumb.data.url = reportedUrl(url);
      return breadcrumb;
    },
  });
  return (error) => {
    captureException(error);
  };
}
