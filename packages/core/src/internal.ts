/**
 * @mockpoint/core/internal: what mockpoint's own packages share beyond the
 * public API. Not a public API: it may change in any release.
 *
 * @module
 */

export { OWN_ERROR } from './wire/errors.js';
