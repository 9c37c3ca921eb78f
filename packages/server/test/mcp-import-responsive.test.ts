// The MCP `import_mock_file` of a 10,000-interaction Pact file against the real daemon: the import, its check and its
// apply run a slice per event-loop turn, as the routes API does, so /api/health keeps answering while it runs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, it } from 'vitest';
import { startDaemon, useDaemons } from './helpers/daemon.js';
import { watchHealth } from './helpers/watch-health.js';

useDaemons();

const INTERACTIONS = 10_000;

function pactOf(n: number): string {
  const interactions = Array.from({ length: n }, (_, i) => ({
    description: `get item ${i}`,
    request: { method: 'GET', path: `/items/${i}`, headers: { accept: 'application/json' } },
    response: {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: { id: i, name: `item ${i}`, tags: ['a', 'b'], price: i / 4 },
    },
  }));
  return JSON.stringify({
    consumer: { name: 'web' },
    provider: { name: 'items' },
    interactions,
    metadata: { pactSpecification: { version: '3.0.0' } },
  });
}

it(`answers /api/health throughout an MCP import of a ${INTERACTIONS.toLocaleString('en')}-interaction Pact file`, async () => {
  const daemon = await startDaemon({ args: ['--memory'] });
  // The MCP SDK loads on the first request (not what is measured here).
  const client = new Client({ name: 'mockpoint-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/api/mcp`)));
  await client.listTools();
  const text = pactOf(INTERACTIONS);
  const watch = await watchHealth(daemon.url, daemon.child.pid as number, 5);
  const started = performance.now();
  const imported = (await client.callTool(
    { name: 'import_mock_file', arguments: { kind: 'pact', name: 'items', text, apply: true } },
    undefined,
    { timeout: 120_000 },
  )) as { content: { text: string }[]; isError?: boolean };
  const took = performance.now() - started;
  const health = await watch.stop();
  await client.close();
  console.log(
    `mcp import_mock_file: ${INTERACTIONS} Pact interactions in ${took.toFixed(0)} ms; /api/health asked ${health.asked} times, slowest ${health.worstMs.toFixed(0)} ms`,
  );
  expect(imported.isError, imported.content[0]?.text.slice(0, 500)).toBeFalsy();
  const answer = JSON.parse(imported.content[0]?.text ?? '') as { plan: { created: string[] } };
  expect(answer.plan.created).toEqual(['items']);
  expect(await (await fetch(`${daemon.url}/endpoint/items/items/9999`)).json()).toMatchObject({ id: 9999 });
  expect(health.failed).toBe(0);
  expect(health.asked).toBeGreaterThan(5);
  // Generous: an import that held the event loop for its whole parse, check or apply (seconds) fails it.
  expect(health.worstMs).toBeLessThan(1000);
}, 180_000);
