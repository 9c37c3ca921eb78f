// Runs session.sh (bash + curl) against the built daemon and checks what it printed.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../session.sh', import.meta.url));
const CLI = fileURLToPath(new URL('../../../packages/server/dist/cli.js', import.meta.url));

/** The script's output split at its `== <step>` lines. */
function sections(output: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const part of output.split(/^== /m).slice(1)) {
    const newline = part.indexOf('\n');
    const title = part.slice(0, newline).split(' (')[0]!;
    // Repeated titles (two "stop"s) are numbered: stop, stop#2.
    const key = result.has(title) ? `${title}#2` : title;
    result.set(key, part.slice(newline + 1).trim());
  }
  return result;
}

/** A curl step: its JSON body (when there is one) and its status line. */
function response(section: string | undefined): { body: unknown; status: number } {
  const lines = (section ?? '').split('\n');
  const status = Number(lines.pop()?.replace('status: ', ''));
  const text = lines.join('\n');
  return { body: text ? JSON.parse(text) : undefined, status };
}

describe('daemon-curl: session.sh', () => {
  beforeAll(async () => {
    const curl = await run('bash', ['-c', 'command -v curl']).catch(() => undefined);
    if (!curl) throw new Error('curl is not installed: this example is a curl session (apt-get install -y curl)');
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`pnpm build\` first`);
  });

  it('adds, reads, records a webhook, survives a restart and stops cleanly', async () => {
    const { stdout } = await run('bash', [SCRIPT, CLI], { timeout: 60_000 });
    const steps = sections(stdout);

    expect(steps.get('start')).toMatch(/^started: mockpoint \S+ listening on http:\/\/127\.0\.0\.1:\d+ \(store: level/);
    expect(response(steps.get('add'))).toEqual({
      status: 201,
      body: { success: true, name: 'greeting', data: { hello: 'world' }, statusCode: 201, delay: 0 },
    });
    expect(response(steps.get('read'))).toEqual({ status: 201, body: { hello: 'world' } });
    expect(response(steps.get('webhook'))).toEqual({ status: 201, body: { hello: 'world' } });

    const journal = response(steps.get('journal'));
    expect(journal.status).toBe(200);
    const { requests } = journal.body as { requests: Array<Record<string, unknown>> };
    expect(requests.map((r) => r.method)).toEqual(['GET', 'POST']);
    expect(requests[1]).toMatchObject({
      path: '/endpoint/greeting',
      query: { source: 'curl' },
      body: '{"event":"ping"}',
      json: { event: 'ping' },
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
    });

    expect(steps.get('stop')).toMatch(/^stopped: exit status 0; last line: mockpoint: SIGTERM received, shutting down/);
    const restart = steps.get('restart and read')!;
    expect(restart).toMatch(/^started: mockpoint/);
    expect(response(restart.split('\n').slice(1).join('\n'))).toEqual({ status: 201, body: { hello: 'world' } });
    expect(steps.get('stop#2')).toMatch(/^stopped: exit status 0/);
  });
});
