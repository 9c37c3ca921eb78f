/**
 * The endpoint record's defaults and the default delay bound, with no imports
 * (shared by the schemas, the limits and `@mockpoint/core/defaults`).
 *
 * @module
 */
export const DEFAULT_STATUS_CODE = 200;
export const DEFAULT_DELAY = 0;
/** The default upper bound for `delay`, in milliseconds. */
export const DEFAULT_MAX_DELAY_MS = 60_000;
