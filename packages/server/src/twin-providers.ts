/**
 * The providers `@mockpoint/twins` ships (docs/twins.md), with no imports, so
 * that reading the settings (`--twin`) loads nothing of the core.
 *
 * @module
 */
export const TWIN_PROVIDERS: readonly string[] = ['stripe', 'github'];
