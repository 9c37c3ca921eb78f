/**
 * The docs' WebSocket test snippets run as written: each ```ts block of the
 * plugin's README and docs/websocket.md that opens a WebSocket is written, as
 * it stands, into a test file of a throwaway project (test-artifacts/, ignored
 * by git) whose config is the README's (`setupFiles: ['@mockpoint/vitest/setup']`),
 * and a child Vitest runs it. Before, they used a global `WebSocket`, which
 * Node 20 lacks inside Vitest, and waited for a message nothing sent.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runVitest } from './run-vitest.js';

const PAGES = {
  'vitest-plugin-readme': new URL('../README.md', import.meta.url),
  'docs-websocket': new URL('../../../docs/websocket.md', import.meta.url),
};

/** The ```ts blocks of a Markdown page, as written. */
function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

const ROOT = fileURLToPath(new URL('../test-artifacts/doc-snippets/', import.meta.url));

describe('the WebSocket snippets of the docs run in Vitest as written', { timeout: 90_000 }, () => {
  it('each one, in a child Vitest on this Node', async () => {
    rmSync(ROOT, { recursive: true, force: true });
    mkdirSync(ROOT, { recursive: true });
    writeFileSync(
      `${ROOT}vitest.config.ts`,
      [
        "import { defineConfig } from 'vitest/config';",
        // The README's config, reading the plugin from its source in this repository.
        'export default defineConfig({',
        "  ssr: { resolve: { conditions: ['@mockpoint/source'] } },",
        "  test: { include: ['*.test.ts'], setupFiles: ['@mockpoint/vitest/setup'], testTimeout: 30_000 },",
        '});',
        '',
      ].join('\n'),
    );
    let count = 0;
    for (const [page, url] of Object.entries(PAGES)) {
      const snippets = tsBlocks(readFileSync(url, 'utf8')).filter((block) => block.includes('new WebSocket('));
      expect(snippets.length, page).toBeGreaterThan(0);
      for (const [index, snippet] of snippets.entries()) {
        writeFileSync(`${ROOT}${page}-${index}.test.ts`, snippet);
        count += 1;
      }
    }
    const run = await runVitest(ROOT);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(new RegExp(`Test Files\\s+${count} passed \\(${count}\\)`));
  });
});
