// The `mockpoint` command line as a person meets it, through the built CLI: every
// parse error is one line with exit code 2 (never a stack), a mistyped command is
// named as one with the closest suggested, `--help` lists every command, each
// command's help is aligned and names the environment variables it reads, `tail`
// honours MOCKPOINT_URL and says where and how it retries, `send --url` (alias
// `--daemon`), a busy port is named by the one address that was busy, and a command leaves a
// standard output it shares with the rest of a script open.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands/command-list.js';
import { CLI_PATH, type CliProcess, runCli, spawnCli, startDaemon, useDaemons } from './helpers/daemon.js';

const STACK_FRAME = /^\s+at /m;

useDaemons();

function oneLine(run: { stderr: string }): string {
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  expect(lines, run.stderr).toHaveLength(1);
  expect(run.stderr).not.toMatch(STACK_FRAME);
  return lines[0] as string;
}

async function stderrUntil(proc: CliProcess, check: (text: string) => boolean): Promise<string> {
  await expect.poll(() => check(proc.stderr), { timeout: 10_000, interval: 20 }).toBe(true);
  return proc.stderr;
}

/** A port nothing listens on (it was just free). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('parse errors', () => {
  it.each([
    [['send', 'http://127.0.0.1:9/', '--data'], 'mockpoint send: error: --data needs a value'],
    [['send', 'http://127.0.0.1:9/', '--bogus'], 'mockpoint send: error: unknown option --bogus'],
    [['send', '--data', '{}'], 'mockpoint send: error: give the receiver URL'],
    [['tail', '--match', '{nope'], `mockpoint tail: error: --match must be JSON`],
    [['tail', '--bogus'], 'mockpoint tail: error: --bogus: unknown option'],
    [['tail', '--url', 'ftp://x'], 'mockpoint tail: error: --url must be an http(s) URL'],
    [['tail', '--url'], 'mockpoint tail: error: --url needs a value'],
    [['record', '--upstream'], 'mockpoint record: error: --upstream needs a value'],
    [['export', '--format', 'xml'], 'mockpoint export: error: --format must be json or yaml'],
    [['apply'], 'mockpoint apply: error: apply needs one file'],
    [['validate', '--x'], 'mockpoint validate: error: --x: unknown option'],
    [['import', 'a.yaml', '--name'], 'mockpoint import: error: --name needs a value'],
  ])('mockpoint %j: one line with exit code 2, no stack', async (args, start) => {
    const run = await runCli({ args });
    expect(oneLine(run)).toContain(start);
    expect(run.code).toBe(2);
  });

  it('a mistyped command is called an unknown command, with the closest one suggested', async () => {
    const run = await runCli({ args: ['taill'] });
    expect(oneLine(run)).toMatch(/^mockpoint: error: unknown command "taill"; did you mean "tail"\?/);
    expect(run.code).toBe(1);
    const far = await runCli({ args: ['frobnicate'] });
    expect(oneLine(far)).toMatch(/^mockpoint: error: unknown command "frobnicate" \(the commands: tail, /);
  });
});

describe('the daemon flags', () => {
  // Before: `--prot 1` said only "unknown option", though a mistyped command gets "did you mean".
  it.each([
    [['--prot', '1'], 'mockpoint: error: --prot: unknown option; did you mean --port? (see mockpoint --help)'],
    [['--memry'], 'mockpoint: error: --memry: unknown option; did you mean --memory?'],
    [['--data-di', 'x'], 'mockpoint: error: --data-di: unknown option; did you mean --data-dir?'],
    [['tail', '--jsn'], 'mockpoint tail: error: --jsn: unknown option; did you mean --json?'],
  ])('mockpoint %j suggests the nearest flag', async (args, start) => {
    const run = await runCli({ args });
    expect(oneLine(run)).toContain(start);
  });

  it('a flag far from every flag gets no suggestion', async () => {
    expect(oneLine(await runCli({ args: ['--frobnicate'] }))).toBe(
      'mockpoint: error: --frobnicate: unknown option (see mockpoint --help)',
    );
  });

  // Before: each of these started a daemon that ignored the flag (no HTTPS on --https-port, no
  // certificate read, a data directory never used, a pass-through that could pass nothing).
  it.each([
    [['--https-port', '0'], '--https-port: means something only with --https'],
    [['--cert', 'c.pem', '--key', 'k.pem'], '--cert: means something only with --https'],
    [['--data-dir', 'elsewhere'], '--data-dir: is not used with --memory'],
    [['--proxy-pass-through'], '--proxy-pass-through: passes nothing on while no host is allowed'],
  ])('mockpoint --memory %j stops start-up with one line instead of ignoring it', async (args, reason) => {
    const run = await runCli({ args: ['--memory', '--port', '0', ...args] });
    expect(run.code).toBe(1);
    expect(oneLine(run).startsWith(`mockpoint: error: ${reason}`), run.stderr).toBe(true);
    expect(run.stdout).not.toContain('listening');
  });

  it('--https-port with MOCKPOINT_HTTPS=1 serves HTTPS there', async () => {
    const daemon = await startDaemon({ args: ['--memory', '--https-port', '0'], env: { MOCKPOINT_HTTPS: '1' } });
    expect(daemon.stdout).toMatch(/https on https:\/\/\S+:\d+/);
  });
});

describe('help', () => {
  it('mockpoint --help lists every command, repair included', async () => {
    const run = await runCli({ args: ['--help'] });
    expect(run.code).toBe(0);
    for (const name of Object.keys(COMMANDS)) expect(run.stdout).toMatch(new RegExp(`^ +mockpoint ${name} `, 'm'));
    expect(run.stdout).toMatch(/mockpoint repair --data-dir <dir> +repair a damaged LevelDB data directory/);
  });

  /**
   * Where each text line of the Options block starts (continuation lines included; a flag too long
   * for its column stands alone on its line, its text on the next), and the lines themselves.
   */
  function optionColumns(help: string): { text: number[]; lines: string[] } {
    const block = help.slice(help.indexOf('\nOptions')).split('\n').slice(2);
    const lines = block.slice(0, block.indexOf(''));
    expect(lines.length).toBeGreaterThan(0);
    const text = lines.flatMap((line) => {
      const cells = [...line.matchAll(/(?<=^ {2}| {2,})\S+(?: \S+)*/g)];
      const last = cells.at(-1) as RegExpExecArray;
      return cells.length === 1 && last.index === 2 ? [] : [last.index];
    });
    return { text, lines };
  }

  // Before: each help had its own text column (apply 41, record 48, send 58, the daemon's 79 with
  // lines of 450 columns), set by its longest flag and variable. Now one column for every help.
  it('every --help starts its texts at one column, the same for all, within 100 columns', async () => {
    const names = ['', ...Object.keys(COMMANDS).filter((name) => name !== 'repair')];
    const columns = new Map<string, number[]>();
    for (const name of names) {
      const run = await runCli({ args: name === '' ? ['--help'] : [name, '--help'] });
      expect(run.code).toBe(0);
      const { text, lines } = optionColumns(run.stdout);
      columns.set(name, [...new Set(text)]);
      expect(
        lines.filter((line) => line.length > 100),
        run.stdout,
      ).toEqual([]);
    }
    const expected = new Map(names.map((name) => [name, [32]]));
    expect(columns).toEqual(expected);
  });

  it('a variable a flag falls back to follows its text', async () => {
    const run = await runCli({ args: ['apply', '--help'] });
    expect(run.stdout).toMatch(
      /^ {2}--url <url> {19}the daemon \(default http:\/\/localhost:16540\) \(env: MOCKPOINT_URL\)$/m,
    );
    const daemon = await runCli({ args: ['--help'] });
    expect(daemon.stdout).toMatch(
      /^ {2}--memory {22}keep endpoints in memory only \(nothing on disk\)\s+\(env: MOCKPOINT_MEMORY=1\)$/m,
    );
    expect(daemon.stdout).toMatch(/^ {2}--graphql-subscription-interval-ms <ms>\n {32}\S/m);
  });

  it.each([
    ['tail', ['MOCKPOINT_URL', 'MOCKPOINT_ADMIN_TOKEN']],
    ['export', ['MOCKPOINT_URL', 'MOCKPOINT_ADMIN_TOKEN']],
    ['apply', ['MOCKPOINT_URL', 'MOCKPOINT_ADMIN_TOKEN']],
    ['record', ['MOCKPOINT_URL', 'MOCKPOINT_ADMIN_TOKEN', 'MOCKPOINT_PROXY_ALLOW_HOSTS']],
    ['send', ['MOCKPOINT_ADMIN_TOKEN', 'MOCKPOINT_DELIVERY_ALLOW_HOSTS']],
  ])('mockpoint %s --help names the environment variables it reads', async (name, variables) => {
    const run = await runCli({ args: [name, '--help'] });
    for (const variable of variables) expect(run.stdout).toContain(variable);
  });

  it('send --help names --url, and --daemon as its alias', async () => {
    const run = await runCli({ args: ['send', '--help'] });
    expect(run.stdout).toMatch(/^ {2}--url <url> +send through this mockpoint daemon/m);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain('(--daemon <url> is the same');
    // Every other command that talks to a daemon falls back to MOCKPOINT_URL: send says it does not.
    expect(run.stdout).toMatch(/MOCKPOINT_URL is not read/);
  });

  it('import --help prints its --json line whole (a " | " inside a text is text)', async () => {
    const run = await runCli({ args: ['import', '--help'] });
    expect(run.stdout).toMatch(
      /^ {2}--json +print \{ kind, name, leftOut, mockFile \| applied \} as JSON on\n +standard output$/m,
    );
  });
});

describe('standard output shared with what runs next', () => {
  // Node gives a child's piped stdio as a socket pair: a command that ended its stdout shut that
  // socket down for the whole shell script, and the next command's write died of SIGPIPE.
  it('a command leaves it open: the next command in the same script still writes', () => {
    const script = `"${process.execPath}" "${CLI_PATH}" tail --help; echo after`;
    const run = spawnSync('sh', ['-c', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.signal).toBeNull();
    expect(run.stdout).toContain('Usage: mockpoint tail');
    expect(run.stdout.endsWith('after\n')).toBe(true);
    expect(run.status).toBe(0);
  });
});

describe('tail and its daemon', () => {
  it('honours MOCKPOINT_URL like the other commands', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const tail = await spawnCli({ args: ['tail'], env: { MOCKPOINT_URL: daemon.url } });
    await stderrUntil(tail, (text) => text.includes(`watching every name on ${daemon.url}`));
    tail.child.kill('SIGINT');
    expect((await tail.exited).code).toBe(0);
  });

  it('with no daemon, names the URL and says each retry, waiting longer each time', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const tail = await spawnCli({ args: ['tail', '--url', url] });
    const text = await stderrUntil(tail, (out) => out.includes('(attempt 4;'));
    const lines = text.split('\n').filter(Boolean);
    const retries = lines.map((line) =>
      /^mockpoint tail: cannot reach the daemon at (\S+): ECONNREFUSED; trying again in ([\d.]+) s \(attempt (\d+); Ctrl-C to stop\)$/.exec(
        line,
      ),
    );
    expect(retries.every(Boolean), text).toBe(true);
    expect(retries.map((match) => match?.[1])).toEqual(retries.map(() => url));
    const waits = retries.map((match) => Number(match?.[2]));
    expect(waits.slice(0, 4)).toEqual([0.2, 0.4, 0.8, 1.6]);
    tail.child.kill('SIGINT');
    expect((await tail.exited).code).toBe(0);
  });
});

describe('export and apply with no daemon', () => {
  it.each([['export'], ['apply']])(
    'mockpoint %s says no daemon answered and what to do, not only "fetch failed"',
    async (name) => {
      const port = await closedPort();
      const url = `http://127.0.0.1:${port}`;
      const file = join(mkdtempSync(join(tmpdir(), 'mockpoint-nodaemon-')), 'mockpoint.yaml');
      writeFileSync(file, 'version: 1\nendpoints: []\n');
      const run = await runCli({ args: name === 'apply' ? ['apply', file, '--url', url] : ['export', '--url', url] });
      expect(run.code).toBe(1);
      expect(oneLine(run)).toMatch(
        new RegExp(
          `no mockpoint daemon answered at http://127\\.0\\.0\\.1:${port} .*start one .*--url or MOCKPOINT_URL`,
        ),
      );
    },
  );
});

describe('send through a daemon', () => {
  it('--url sends through the daemon (and --daemon is the same)', async () => {
    const daemon = await startDaemon({ args: ['--memory'] });
    const receiver: Server = createServer((_, res) => res.end('ok'));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      for (const flag of ['--url', '--daemon']) {
        const run = await runCli({ args: ['send', target, '--body', flag, flag, daemon.url] });
        expect(run.code, run.stderr).toBe(0);
      }
      const listed = (await (await fetch(`${daemon.url}/api/deliveries`)).json()) as { deliveries: unknown[] };
      expect(listed.deliveries).toHaveLength(2);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('a busy port', () => {
  it('names the one address that was busy, not both loopback addresses', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '::1', resolve));
    try {
      const port = (blocker.address() as AddressInfo).port;
      const run = await runCli({ args: ['--port', String(port), '--memory'] });
      const line = oneLine(run);
      expect(line).toContain(`port ${port} is already in use ([::1]:${port})`);
      expect(line).not.toContain('127.0.0.1');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
