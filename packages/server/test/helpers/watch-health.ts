/**
 * Watches a running daemon while a test attacks it: asks `/api/health` every
 * 200 ms (each ask timed, one at a time, an ask still waiting at the end
 * counted by how long it has waited) and reads the process's resident memory
 * (`VmRSS` of /proc/<pid>/status, Linux) as often. {@link HealthWatch.stop}
 * gives the worst latency and the RSS at the start and at its peak. A fuzz test
 * uses {@link watchWhileFuzzing}: the watch, and a check that fails the test
 * when health did not answer within a bound.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { expect, onTestFinished } from 'vitest';

/** What a {@link HealthWatch} saw. */
export interface HealthReport {
  /** How many times health was asked. */
  asked: number;
  /** The slowest answer (or the wait of one never answered), in milliseconds. */
  worstMs: number;
  /** Asks that failed (no answer, or not 200). */
  failed: number;
  /** Resident memory when the watch started, and the most it reached, in bytes (0 off Linux). */
  rssStart: number;
  rssPeak: number;
  /** CPU time the process spent while watched (user and system), in milliseconds (0 off Linux). */
  cpuMs: number;
}

export interface HealthWatch {
  /** Stops asking and reports (waits for the ask in flight, at most its timeout). */
  stop(): Promise<HealthReport>;
}

/** Resident memory of `pid` in bytes; 0 when /proc cannot tell. */
export async function rssOf(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? 0 : Number(kb) * 1024;
  } catch {
    return 0;
  }
}

/** CPU time `pid` has spent (user and system), in milliseconds; 0 when /proc cannot tell. */
export async function cpuOf(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses: state is field 3, utime 14, stime 15 (clock ticks, 100 a second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Starts watching the daemon at `url` (process `pid`); `intervalMs` between asks. */
export async function watchHealth(url: string, pid: number, intervalMs = 200): Promise<HealthWatch> {
  const cpuStart = await cpuOf(pid);
  const report: HealthReport = { asked: 0, worstMs: 0, failed: 0, rssStart: await rssOf(pid), rssPeak: 0, cpuMs: 0 };
  report.rssPeak = report.rssStart;
  let running = true;
  let askedAt = 0;
  /** Ends the pause between asks at once: stop() does not wait one out. */
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (running) {
      askedAt = performance.now();
      report.asked++;
      try {
        const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(30_000) });
        await response.arrayBuffer();
        if (response.status !== 200) report.failed++;
      } catch {
        report.failed++;
      }
      report.worstMs = Math.max(report.worstMs, performance.now() - askedAt);
      askedAt = 0;
      report.rssPeak = Math.max(report.rssPeak, await rssOf(pid));
      if (running) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, intervalMs);
        });
      }
    }
  })();
  return {
    async stop() {
      running = false;
      wake?.();
      // An ask still waiting counts for what it has waited so far.
      if (askedAt !== 0) report.worstMs = Math.max(report.worstMs, performance.now() - askedAt);
      await loop;
      report.rssPeak = Math.max(report.rssPeak, await rssOf(pid));
      report.cpuMs = (await cpuOf(pid)) - cpuStart;
      return report;
    },
  };
}

/**
 * How long `/api/health` may take while a fuzz test attacks the daemon: generous, for a machine
 * whose cores other tests share (at a load of 17, one ask took 2.7 s); what it catches is a daemon
 * stuck or gone (a backtracking pattern, a stalled call: tens of seconds), not a slow one.
 */
export const FUZZ_HEALTH_BOUND_MS = 5_000;

/** A {@link watchHealth} of a fuzz test, from {@link watchWhileFuzzing}. */
export interface FuzzHealth {
  /**
   * Stops watching and fails the test unless health was asked, every ask answered 200, and the
   * slowest (or one still waiting) within the bound. Returns what was seen.
   */
  check(): Promise<HealthReport>;
}

/**
 * Asks the daemon's `/api/health` all through a fuzz test (every 200 ms, {@link watchHealth}), not
 * only after it: call it once the daemon is up, fuzz, then {@link FuzzHealth.check}. A test that
 * fails before its check still stops the watch when it ends.
 */
export async function watchWhileFuzzing(
  daemon: { url: string; child: { pid?: number | undefined } },
  boundMs = FUZZ_HEALTH_BOUND_MS,
): Promise<FuzzHealth> {
  const watch = await watchHealth(daemon.url, daemon.child.pid as number);
  let stopped: Promise<HealthReport> | undefined;
  const stop = () => {
    stopped ??= watch.stop();
    return stopped;
  };
  onTestFinished(async () => {
    await stop();
  });
  return {
    async check() {
      const report = await stop();
      const seen = `health while fuzzing: ${JSON.stringify(report)}`;
      expect(report.asked, seen).toBeGreaterThan(0);
      expect(report.failed, seen).toBe(0);
      expect(report.worstMs, seen).toBeLessThan(boundMs);
      return report;
    },
  };
}
