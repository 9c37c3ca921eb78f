// `mockpoint mcp` whose reader (the MCP client's end of its standard output) closes early: the answer it writes
// fails with EPIPE, and it exits quietly — no unhandled 'error' event, no stack trace.
import { expect, it } from 'vitest';
import { spawnCli, useDaemons } from './helpers/daemon.js';

useDaemons();

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
};

it('exits quietly when the reader of its standard output has gone', async () => {
  const mcp = await spawnCli({ args: ['mcp'], stdin: 'pipe' });
  // Ready once it says where its in-memory daemon is.
  await new Promise<void>((ready) => {
    const check = () => {
      if (mcp.stderr.includes('in-memory daemon at')) {
        mcp.child.stderr?.off('data', check);
        ready();
      }
    };
    mcp.child.stderr?.on('data', check);
    check();
  });
  // The client's end of the pipe closes, then it asks: the answer is written to no one.
  mcp.child.stdout?.destroy();
  mcp.child.stdin?.write(`${JSON.stringify(INITIALIZE)}\n`);
  const exit = await mcp.exited;
  expect(mcp.stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
  expect(exit).toEqual({ code: 0, signal: null });
});
