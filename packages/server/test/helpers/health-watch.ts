/**
 * A probe for "the daemon stays responsive": asks `/api/health` every 200 ms
 * while an attack runs, and reads the daemon's resident memory (`VmRSS` of
 * /proc/<pid>/status) at each ask. Linux only, 127.0.0.1 only.
 */
import { readFileSync } from 'node:fs';
import { get } from 'node:http';

export interface HealthWatch {
  /** Stops asking; resolves the slowest answer (ms), the RSS before and the highest RSS seen (MB). */
  stop(): Promise<{ worstMs: number; rssBeforeMb: number; rssPeakMb: number; asks: number }>;
}

/** Resident memory of process `pid`, in MB. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

/** Starts asking `${url}/api/health` every 200 ms (each ask waits for the previous answer). */
export function watchHealth(url: string, pid: number): HealthWatch {
  const rssBeforeMb = rssMb(pid);
  let rssPeakMb = rssBeforeMb;
  let worstMs = 0;
  let asks = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const request = get(`${url}/api/health`, { agent: false, timeout: 30_000 }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode));
        });
        request.on('timeout', () => request.destroy(new Error('/api/health: no answer within 30 s')));
        request.on('error', reject);
      });
      if (status !== 200) throw new Error(`/api/health answered ${status}`);
      worstMs = Math.max(worstMs, performance.now() - started);
      asks++;
      rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { worstMs, rssBeforeMb, rssPeakMb, asks };
    },
  };
}
