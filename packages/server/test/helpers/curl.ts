/**
 * curl as the tests run it: at most 10 s, errors on stderr, and the HTTP version and status
 * written after the body (`-w`), split off again.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs curl with `args`; the answer's status, HTTP version (`1.1`, `2`) and body. */
export async function curlVersioned(args: string[]): Promise<{ status: number; version: string; body: string }> {
  const { stdout } = await run('curl', ['-sS', '--max-time', '10', '-w', '\n%{http_version} %{http_code}', ...args]);
  const cut = stdout.lastIndexOf('\n');
  const [version, status] = stdout.slice(cut + 1).split(' ');
  return { status: Number(status), version: version as string, body: stdout.slice(0, cut) };
}

/** Runs curl with `args`; the answer's status and body. */
export async function curl(args: string[]): Promise<{ status: number; body: string }> {
  const { status, body } = await curlVersioned(args);
  return { status, body };
}
