/**
 * @mockpoint/server: the mockpoint daemon as a library (`startServer`) and its
 * settings resolver. The `mockpoint` bin is `cli.ts`.
 *
 * @module
 */
export { type CliRequest, ConfigError, DEFAULTS, HELP, resolveConfig, type ServerConfig } from './config.js';
export { createReporter, type ErrorReporter, REPORTING_PACKAGE, ReportingUnavailableError } from './reporting.js';
export { type RunningServer, StartError, type StartServerOptions, startServer } from './start-server.js';
export { registerWebRoutes, type WebOptions } from './web.js';
