/**
 * `mockpoint mcp [--url URL] [--token T] [--port N]`: mockpoint as an MCP server
 * on standard input and output (docs/mcp.md), for assistants that start their
 * tools as processes. With `--url` (or MOCKPOINT_URL) it drives that daemon
 * through the admin API; without, it starts an in-memory daemon of its own on
 * 127.0.0.1 (a free port, or `--port`), whose URL it prints on standard error,
 * and stops it when the client closes the connection.
 *
 * @module
 */
import type { AdminTarget } from '@mockpoint/core/files';
import { type CommandIo, DAEMON_OPTIONS, daemonTarget, optionsHelp, parseArgs, UsageError } from './command-args.js';

export const MCP_HELP = `Usage: mockpoint mcp [--url <url>] [--token <token>]
       mockpoint mcp [--port <port>]

Serves the Model Context Protocol on standard input/output: an assistant (Claude, Cursor,
VS Code, …) creates endpoints and routes, queues answers, waits for and reads requests through its
tools, which mirror the admin API (docs/mcp.md). With --url (or MOCKPOINT_URL) it drives that
running daemon; without, it starts an in-memory daemon of its own on 127.0.0.1 and prints its URL
on standard error. A running daemon also serves MCP over HTTP at /api/mcp.

${optionsHelp(
  `
--port <port> | without --url: the in-memory daemon's port (default: a free one)
`,
  DAEMON_OPTIONS,
)}`;

export async function runMcp(
  argv: readonly string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
  stop: AbortSignal,
): Promise<number> {
  const args = parseArgs('mcp', argv, { values: ['--url', '--token', '--port'] });
  if (args.help) {
    io.out(MCP_HELP);
    return 0;
  }
  const remote = args.values.has('--url') || Boolean(env.MOCKPOINT_URL);
  if (remote && args.values.has('--port')) throw new UsageError('--port is for the in-memory daemon (no --url)');
  let target: AdminTarget;
  let close = async () => {};
  if (remote) target = daemonTarget(args, env);
  else {
    const portText = args.values.get('--port') ?? '0';
    const port = Number(portText);
    if (!/^\d{1,5}$/.test(portText) || port > 65535) throw new UsageError(`--port is 0-65535; received ${portText}`);
    const { startServer } = await import('../start-server.js');
    const server = await startServer({ memory: true, port, host: '127.0.0.1' });
    io.err(`mockpoint mcp: in-memory daemon at ${server.url} (stopped when the MCP client disconnects)`);
    target = { url: server.url };
    close = () => server.close();
  }
  const [{ createClient }, { loadTools, createMcpServer }, { StdioServerTransport }] = await Promise.all([
    import('@mockpoint/core/client'),
    import('../mcp/mcp-server.js'),
    import('../mcp/sdk.js'),
  ]);
  try {
    const tools = await loadTools(createClient({ baseUrl: target.url, token: target.token }));
    const server = createMcpServer(target, tools);
    const transport = new StdioServerTransport();
    let readerGone: (error: Error) => void = () => {};
    const closed = new Promise<void>((resolve, reject) => {
      server.onclose = resolve;
      process.stdin.once('end', resolve);
      stop.addEventListener('abort', () => resolve(), { once: true });
      // The client closed its end of our standard output (EPIPE): it is gone, as when its input ends.
      readerGone = (error) => ((error as NodeJS.ErrnoException).code === 'EPIPE' ? resolve() : reject(error));
      process.stdout.on('error', readerGone);
    });
    try {
      await server.connect(transport);
      await closed;
      await server.close();
    } finally {
      process.stdout.off('error', readerGone);
    }
  } finally {
    await close();
  }
  return 0;
}
