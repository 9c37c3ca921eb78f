#!/usr/bin/env node
/**
 * The `mockpoint` command: parse settings, start the daemon, print one start-up
 * line, shut down gracefully on SIGINT/SIGTERM/SIGHUP. Errors are one line, never a stack.
 * `--help` and `--version` load neither the app nor a store: the daemon's modules
 * are imported only once it is going to start.
 *
 * @module
 */
import { writeSync } from 'node:fs';
import type { Backend } from '@mockpoint/core';
import { VERSION } from '@mockpoint/core/defaults';
import { isOwnError } from '@mockpoint/core/internal';
import { type CommandName, closestCommand, isCommand } from './commands/command-list.js';
import { ConfigError, HELP, resolveConfig, type ServerConfig } from './config.js';
import { holdYoungGeneration } from './lean-start.js';

/** Signals within this long of the first are copies of it (see `shutdown`). */
const RELAYED_SIGNAL_MS = 1000;

function fail(message: string): never {
  // Written at once: under Bun (the single executable), a process.stderr.write to a pipe can
  // still be queued when process.exit ends the process, and the one line is lost.
  writeSync(2, `mockpoint: error: ${message}\n`);
  process.exit(1);
}

/** Where the subcommands write. */
const IO = {
  out: (text: string) => process.stdout.write(text),
  err: (line: string) => process.stderr.write(`${line}\n`),
};

/**
 * Runs subcommand `name`: a usage error (INVALID_ARGUMENT) exits 2, any other of
 * our errors 1, both as one line `mockpoint <name>: error: …`, never a stack.
 */
async function runCommand(name: CommandName, run: () => Promise<number>): Promise<never> {
  try {
    process.exitCode = await run();
  } catch (error) {
    if (!isOwnError(error)) throw error;
    process.stderr.write(`mockpoint ${name}: error: ${error.message}\n`);
    process.exitCode = error.code === 'INVALID_ARGUMENT' ? 2 : 1;
  }
  await drainStdout();
  process.exit();
}

/**
 * Lets standard output drain (a piped export) before the process exits. On Node an empty write's
 * callback comes once everything written before it has gone; ending stdout would shut a socket
 * down for every process sharing it (a shell script run with Node's piped stdio: the next command
 * that writes dies of SIGPIPE). Bun calls an empty write back before earlier data has gone, so there
 * only end() waits for every byte. A write that fails because the reader has gone ends the wait.
 */
function drainStdout(): Promise<void> {
  return new Promise<void>((done) => {
    // A reader that has gone (EPIPE: `mockpoint mcp`'s client, `| head`) leaves nothing to drain: no stack trace.
    if (process.stdout.destroyed) return done();
    process.stdout.once('error', () => done());
    if (process.versions.bun === undefined) process.stdout.write('', () => done());
    else process.stdout.end(() => done());
  });
}

/** An AbortSignal that Ctrl-C (and SIGTERM, SIGHUP) aborts: the end of a command that runs until stopped. */
function stopSignal(): AbortSignal {
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop.abort());
  return stop.signal;
}

/** `mockpoint tail …`: the live journal; Ctrl-C ends it with exit code 0. */
async function tail(argv: string[]): Promise<number> {
  const { parseTailArgs, runTail, TAIL_HELP } = await import('./commands/tail-command.js');
  const options = parseTailArgs(argv, process.env);
  if (options === undefined) {
    IO.out(TAIL_HELP);
    return 0;
  }
  await runTail(options, { out: (line) => IO.out(`${line}\n`), err: IO.err }, stopSignal());
  return 0;
}

/** `mockpoint record …`: records through a running daemon until Ctrl-C, then writes the mock file. */
async function record(argv: string[]): Promise<number> {
  const { runRecord } = await import('./commands/record-command.js');
  return runRecord(argv, IO, process.env, stopSignal());
}

/** `mockpoint send URL …`: one signed delivery; exits 0 when it did what was asked. */
async function send(argv: string[]): Promise<number> {
  const { parseSendArgs, runSend, SEND_HELP } = await import('./commands/send-command.js');
  const options = parseSendArgs(argv, undefined, process.env);
  if (options === undefined) {
    IO.out(SEND_HELP);
    return 0;
  }
  // Sent from here, a delivery obeys the same MOCKPOINT_DELIVERY_ALLOW_HOSTS (env or .env) as the daemon.
  const deliveryAllowHosts =
    options.url === undefined ? resolveConfig({ env: process.env, cwd: process.cwd() }).config.deliveryAllowHosts : [];
  const { nodeDeliverySend } = await import('@mockpoint/core/node');
  return runSend(
    options,
    { out: (line) => IO.out(`${line}\n`), err: IO.err },
    { deliveryAllowHosts, deliverySend: nodeDeliverySend() },
  );
}

/** Every subcommand's runner, keyed like the list `--help` prints (a compile error when one is missing). */
const RUNNERS: Record<CommandName, (argv: string[]) => Promise<number>> = {
  tail,
  send,
  record,
  repair: async (argv) => (await import('./repair.js')).runRepair(argv, process.cwd()),
  validate: async (argv) => (await import('./commands/validate-command.js')).runValidate(argv, IO),
  apply: async (argv) => (await import('./commands/apply-command.js')).runApply(argv, IO, process.env),
  export: async (argv) => (await import('./commands/export-command.js')).runExport(argv, IO, process.env),
  verify: async (argv) => (await import('./commands/verify-command.js')).runVerify(argv, IO, process.env),
  coverage: async (argv) => (await import('./commands/coverage-command.js')).runCoverage(argv, IO, process.env),
  import: async (argv) => (await import('./commands/import-command.js')).runImport(argv, IO, process.env),
  trigger: async (argv) => (await import('./commands/trigger-command.js')).runTrigger(argv, IO, process.env),
  mcp: async (argv) => (await import('./commands/mcp-command.js')).runMcp(argv, IO, process.env, stopSignal()),
};

/**
 * Loads the store's modules (LevelDB's: most of core's) and starts opening it, before the daemon's
 * other modules are imported: LevelDB reads its files on a thread of its own while they load.
 * `startServer` takes the opening over (and says what went wrong in it, if anything did).
 */
async function openStore(config: ServerConfig): Promise<{ opening: Promise<Backend> }> {
  const { prepareBackend } = await import('./open-backend.js');
  const opening = (await prepareBackend(config))();
  // Awaited by startServer; until then a failed open is no unhandled rejection.
  opening.catch(() => {});
  // In an object: an async function's promise would wait for the one it returns.
  return { opening };
}

async function main(): Promise<void> {
  const sub = process.argv[2];
  if (sub !== undefined && isCommand(sub)) {
    return runCommand(sub, () => RUNNERS[sub](process.argv.slice(3)));
  }
  if (sub !== undefined && !sub.startsWith('-')) {
    // The daemon takes only options: a bare word is a command, mistyped or unknown.
    const closest = closestCommand(sub);
    fail(
      `unknown command "${sub}"${closest ? `; did you mean "${closest}"?` : ''} (the commands: ${Object.keys(RUNNERS).join(', ')}; see mockpoint --help)`,
    );
  }
  let request: ReturnType<typeof resolveConfig>;
  try {
    request = resolveConfig({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd() });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  if (request.help) {
    process.stdout.write(HELP);
    return;
  }
  if (request.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const { config } = request;
  // Listen for signals before starting, so a stop requested while the store is
  // opening still closes it cleanly once start-up completes.
  let server: import('./start-server.js').RunningServer | undefined;
  let signals = 0;
  let firstSignalAt = 0;
  const shutdown = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      // One Ctrl-C reaches us several times: from the terminal (to the whole process
      // group) and relayed by each wrapper (npx, pnpm). Those copies arrive together
      // and are the same request; a second Ctrl-C a moment later does not wait.
      if (Date.now() - firstSignalAt < RELAYED_SIGNAL_MS) return;
      process.exit(130);
    }
    firstSignalAt = Date.now();
    process.stdout.write(`mockpoint: ${signal} received, shutting down\n`);
    server?.close().then(
      () => process.exit(0),
      (error: unknown) => fail(`shutdown failed: ${(error as Error).message}`),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // A closed terminal or a supervisor's reload signal: stop cleanly, never abruptly.
  process.on('SIGHUP', shutdown);

  // The young generation held at its first size while the modules load (lean-start.ts).
  const letYoungGenerationGrow = holdYoungGeneration();
  // Every file the daemon writes (LevelDB's tables and logs, the CA) is its owner's alone, whatever
  // the umask it was started with (docs/safety.md#files-on-disk).
  process.umask(0o077);
  // `--twin`'s providers are their package's list, imported only when the setting names one: one it
  // does not ship stops start-up before the store opens (startServer checks it too, for its callers).
  if (Object.keys(config.twin).length > 0) await (await import('./twin-catalog.js')).checkTwinProviders(config.twin);
  // The store opens (LevelDB's files read on its own thread) while the rest of the modules load.
  const { opening } = await openStore(config);
  const { startServer } = await import('./start-server.js');
  server = await startServer(config, opening);
  letYoungGenerationGrow();
  if (signals > 0) {
    await server.close();
    process.exit(0);
  }
  const store = server.backend.describe();
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const extras = [
    `env file: ${request.envFile ?? 'none'}`,
    wildcard ? 'every network interface: reachable from other machines' : '',
    config.adminToken ? 'admin token required for writes' : '',
    Object.keys(config.hosts).length > 0 ? `hosts mapped: ${Object.keys(config.hosts).join(', ')}` : '',
    ...Object.entries(server.endpointUrls).map(([name, url]) => `${name} served at ${url}`),
    server.httpsUrls.length > 0 ? `https on ${server.httpsUrls.join(' and ')} (HTTP/2 and HTTP/1.1)` : '',
    server.caPath ? `local CA ${server.caPath}, trust it in Node with NODE_EXTRA_CA_CERTS=${server.caPath}` : '',
    config.configFile ? `mock file ${config.configFile}${config.watchConfig ? ' (watched)' : ''}` : '',
    config.serverReportingDsn ? 'server error reporting on' : '',
  ].filter(Boolean);
  for (const warning of server.warnings) process.stderr.write(`mockpoint: warning: ${warning}\n`);
  process.stdout.write(
    `mockpoint ${VERSION} listening on ${server.urls.join(' and ')} (store: ${store}${extras.length ? `; ${extras.join('; ')}` : ''})\n`,
  );
}

main().catch((error: unknown) => {
  // Known failures (a bad setting, a busy port, a locked directory) are one line;
  // anything else is a bug, and its stack is what a report needs.
  if (isOwnError(error)) fail(error.message);
  process.stderr.write(
    `mockpoint: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
