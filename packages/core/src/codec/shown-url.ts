/**
 * URLs as mockpoint shows them anywhere a person or a service other than the
 * target may read them (the API, the page, logs, the CLI's output, error
 * reports): a user and password in a URL (`http://u:pw@host/`) never leave the
 * process that sends to it.
 *
 * @module
 */

/** What the user and password of a shown URL become. */
export const MASKED_CREDENTIALS = '***';

/**
 * `url` with its user and password masked (`http://***@host/…`); returned as it
 * is when it has none, or is not an absolute URL.
 */
export function maskCredentials(url: string): string {
  if (!url.includes('@') || !URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = MASKED_CREDENTIALS;
  parsed.password = '';
  return parsed.href;
}

/**
 * `url` (absolute, or a path such as a request target) as an error report or a
 * log line carries it: no query string, no fragment (they carry tokens and
 * personal data), no credentials.
 */
export function reportedUrl(url: string): string {
  const cut = url.search(/[?#]/);
  return maskCredentials(cut === -1 ? url : url.slice(0, cut));
}
