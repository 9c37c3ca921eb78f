/** The version of @mockpoint/core. */
export const VERSION = '0.1.0';
