/** The package version, set by scripts/build-web.mjs. */
declare const __MOCKPOINT_VERSION__: string;
