/**
 * A real nginx (Debian package) in the foreground with a config of the test's
 * own, in a fresh temp directory, on a free 127.0.0.1 port; stopped by PID.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { freePort } from './free-port.js';

/** A running nginx. */
export interface TestNginx {
  url: string;
  port: number;
  /** Stops it (SIGTERM: nginx's fast shutdown, workers included) and removes its directory. */
  dispose(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts nginx with `httpBlock` (the inside of `http { … }`) after `listen` lines
 * in it were pointed at `127.0.0.1:<a free port>` by `configure(port)`.
 */
/** Debian's nginx is in /usr/sbin, which a plain user's PATH (or `env -i`'s) leaves out. */
const NGINX = process.env.NGINX_PATH ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');

export async function startNginx(configure: (port: number) => string): Promise<TestNginx> {
  const dir = await mkdtemp(join(tmpdir(), 'mockpoint-nginx-'));
  const temp = join(dir, 'temp');
  await mkdir(temp);
  // Workers may run as another user when nginx starts as root.
  await chmod(dir, 0o755);
  await chmod(temp, 0o777);
  let lastError = '';
  // The port is free when picked; another process may take it first, so retry.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const conf = join(dir, 'nginx.conf');
    await writeFile(
      conf,
      `worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 512; }
http {
    access_log off;
    client_body_temp_path ${temp}/body;
    proxy_temp_path ${temp}/proxy;
    fastcgi_temp_path ${temp}/fastcgi;
    uwsgi_temp_path ${temp}/uwsgi;
    scgi_temp_path ${temp}/scgi;
${configure(port)}
}
`,
    );
    const child: ChildProcess = spawn(
      NGINX,
      ['-p', dir, '-c', conf, '-e', join(dir, 'error.log'), '-g', 'daemon off;'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    // A binary that cannot be spawned emits 'error' and no 'exit'.
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', (error) => {
        output += String(error);
        resolve();
      });
    });
    // nginx prints nothing when it is ready: wait until its port accepts (or it exits).
    const up = await vi
      .waitFor(
        async () => {
          if (child.exitCode !== null || child.signalCode !== null) return false;
          if (!(await accepts(port))) throw new Error('nginx does not accept connections yet');
          return true;
        },
        { timeout: 15_000, interval: 50 },
      )
      .catch(() => false);
    if (up) {
      return {
        url: `http://127.0.0.1:${port}`,
        port,
        async dispose() {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
            await exited;
            clearTimeout(timer);
          }
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    lastError = output;
  }
  await rm(dir, { recursive: true, force: true });
  throw new Error(`nginx did not start (is the Debian package installed?): ${lastError}`);
}
