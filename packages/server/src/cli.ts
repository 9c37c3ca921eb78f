#!/usr/bin/env node
/**
 * The `mockpoint` command: parse settings, start the daemon, print one start-up
 * line, shut down gracefully on SIGINT/SIGTERM/SIGHUP. Errors are one line, never a stack.
 * `--help` and `--version` load neither the app nor a store: the daemon's modules
 * are imported only once it is going to start.
 *
 * @module
 */
import { VERSION } from '@mockpoint/core/defaults';
import { isOwnError } from '@mockpoint/core/internal';
import { ConfigError, HELP, resolveConfig } from './config.js';

/** Signals within this long of the first are copies of it (see `shutdown`). */
const RELAYED_SIGNAL_MS = 1000;

function fail(message: string): never {
  process.stderr.write(`mockpoint: error: ${message}\n`);
  process.exit(1);
}

/** `mockpoint tail …`: the live journal; Ctrl-C ends it with exit code 0. */
async function tail(argv: string[]): Promise<void> {
  const { parseTailArgs, runTail, TAIL_HELP } = await import('./tail/tail-command.js');
  const options = parseTailArgs(argv);
  if (options === undefined) {
    process.stdout.write(TAIL_HELP);
    return;
  }
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop.abort());
  await runTail(
    options,
    { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
    stop.signal,
  );
  process.exit(0);
}

/** `mockpoint record …`: records through a running daemon until Ctrl-C, then writes the mock file. */
async function record(argv: string[]): Promise<never> {
  const { runRecord } = await import('./record/record-command.js');
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop.abort());
  const io = {
    out: (text: string) => process.stdout.write(text),
    err: (line: string) => process.stderr.write(`${line}\n`),
  };
  try {
    process.exitCode = await runRecord(argv, io, process.env, stop.signal);
  } catch (error) {
    if (!isOwnError(error)) throw error;
    process.stderr.write(`mockpoint record: error: ${error.message}\n`);
    process.exitCode = error.code === 'INVALID_ARGUMENT' ? 2 : 1;
  }
  await new Promise<void>((done) => process.stdout.write('', () => done()));
  process.exit();
}

/** The subcommands that run once and exit with their code; each lives in its own module. */
const COMMANDS: Record<
  string,
  () => Promise<
    (argv: string[], io: import('./commands/command-args.js').CommandIo, env: NodeJS.ProcessEnv) => Promise<number>
  >
> = {
  validate: async () => (await import('./commands/validate-command.js')).runValidate,
  apply: async () => (await import('./commands/apply-command.js')).runApply,
  export: async () => (await import('./commands/export-command.js')).runExport,
  import: async () => (await import('./commands/import-command.js')).runImport,
};

/** Runs a subcommand of {@link COMMANDS}: a usage error exits 2, a failure 1, both as one line. */
async function command(name: string, argv: string[]): Promise<never> {
  const run = await (COMMANDS[name] as () => ReturnType<(typeof COMMANDS)[string]>)();
  const io = {
    out: (text: string) => process.stdout.write(text),
    err: (line: string) => process.stderr.write(`${line}\n`),
  };
  try {
    process.exitCode = await run(argv, io, process.env);
  } catch (error) {
    if (!isOwnError(error)) throw error;
    process.stderr.write(`mockpoint ${name}: error: ${error.message}\n`);
    process.exitCode = error.code === 'INVALID_ARGUMENT' ? 2 : 1;
  }
  // Let standard output drain (a piped export) before exiting.
  await new Promise<void>((done) => process.stdout.write('', () => done()));
  process.exit();
}

/** `mockpoint send URL …`: one signed delivery; exits 0 when it did what was asked. */
async function send(argv: string[]): Promise<void> {
  const { parseSendArgs, runSend, SEND_HELP } = await import('./send/send-command.js');
  const options = parseSendArgs(argv);
  if (options === undefined) {
    process.stdout.write(SEND_HELP);
    return;
  }
  // Sent from here, a delivery obeys the same MOCKPOINT_DELIVERY_ALLOW_HOSTS (env or .env) as the daemon.
  let deliveryAllowHosts: string[] = [];
  if (options.daemon === undefined) {
    try {
      deliveryAllowHosts = resolveConfig({ env: process.env, cwd: process.cwd() }).config.deliveryAllowHosts;
    } catch (error) {
      if (error instanceof ConfigError) fail(error.message);
      throw error;
    }
  }
  const { nodeDeliverySend } = await import('@mockpoint/core/node');
  const io = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
  };
  const code = await runSend(options, io, { deliveryAllowHosts, deliverySend: nodeDeliverySend() });
  process.exit(code);
}

async function main(): Promise<void> {
  const sub = process.argv[2];
  if (sub !== undefined && Object.hasOwn(COMMANDS, sub)) return command(sub, process.argv.slice(3));
  if (process.argv[2] === 'repair') {
    const { runRepair } = await import('./repair.js');
    process.exit(await runRepair(process.argv.slice(3), process.cwd()));
  }
  if (process.argv[2] === 'tail') return tail(process.argv.slice(3));
  if (process.argv[2] === 'send') return send(process.argv.slice(3));
  if (process.argv[2] === 'record') return record(process.argv.slice(3));
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

  const { startServer, describeStore } = await import('./start-server.js');
  server = await startServer(config);
  if (signals > 0) {
    await server.close();
    process.exit(0);
  }
  const store = describeStore(server.store, config);
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const extras = [
    `env file: ${request.envFile ?? 'none'}`,
    wildcard ? 'every network interface: reachable from other machines' : '',
    config.adminToken ? 'admin token required for writes' : '',
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
