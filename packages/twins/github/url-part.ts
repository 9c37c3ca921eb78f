/**
 * Text as one part of a URL the twin shows (a label's, a release tag's, an asset's), percent-encoded
 * as `encodeURIComponent` does. A lone surrogate, which JSON can carry but no URL can (it has no
 * UTF-8), is shown as U+FFFD instead of throwing: what was sent is kept exact in its own field
 * (`name`, `tag_name`), only the URL that names it differs.
 *
 * @module
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` percent-encoded for a URL's path, a lone surrogate as U+FFFD. */
export function urlPart(text: string): string {
  return encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD'));
}
