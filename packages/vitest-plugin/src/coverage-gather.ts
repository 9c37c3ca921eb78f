/**
 * The run's side of the `coverage` option (docs/coverage.md#after-a-vitest-run):
 * in the global setup, a folder the sessions write their coverage to; at the
 * end of the run, their reports (or, without sessions, the run's instance's)
 * added up, printed, written to `coverage.file`, and with `failOnDead` the run
 * failed (`DEAD_MOCKS`, exit code 1) when a route was never hit.
 *
 * @module
 */
import { mkdtempSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { CoverageReport } from '@mockpoint/core';
import type { TestProject } from 'vitest/node';
import { runCoverageText, sumCoverage } from './coverage-sum.js';
import { COVERAGE_DIR_KEY, COVERAGE_KEY, type CoverageProvided } from './provided.js';

/** What the global setup does with the run's coverage. */
export interface RunCoverageHooks {
  /** Forgets what the sessions wrote (a watch-mode rerun starts anew). */
  reset(): Promise<void>;
  /** Adds up, prints, writes; with `failOnDead`, sets exit code 1 (`DEAD_MOCKS`) when a route was never hit. */
  finish(url: string, token?: string): Promise<void>;
}

/** The reports the sessions wrote, in file-name order. */
async function sessionReports(dir: string): Promise<CoverageReport[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(files.map(async (file) => JSON.parse(await readFile(join(dir, file), 'utf8')) as CoverageReport));
}

/** `GET {url}/api/coverage`: the run's instance's coverage (no sessions). */
async function instanceReport(url: string, token: string | undefined): Promise<CoverageReport> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const response = await fetch(`${url.replace(/\/+$/, '')}/api/coverage`, { headers });
  if (!response.ok)
    throw new Error(`mockpoint: GET /api/coverage answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as CoverageReport;
}

/** The run's coverage hooks when the plugin's `coverage` option is on, else `undefined`. */
export function runCoverage(project: TestProject): RunCoverageHooks | undefined {
  const options = (project.config.provide as Record<string, unknown> | undefined)?.[COVERAGE_KEY] as
    | CoverageProvided
    | undefined;
  if (options === undefined) return undefined;
  const dir = options.sessions ? mkdtempSync(join(tmpdir(), 'mockpoint-coverage-')) : undefined;
  if (dir !== undefined) project.provide(COVERAGE_DIR_KEY as never, dir as never);
  return {
    async reset() {
      if (dir === undefined) return;
      for (const file of await readdir(dir)) await rm(join(dir, file), { force: true });
    },
    async finish(url, token) {
      let reports: CoverageReport[];
      try {
        reports = dir === undefined ? [await instanceReport(url, token)] : await sessionReports(dir);
      } finally {
        if (dir !== undefined) await rm(dir, { recursive: true, force: true });
      }
      const run = sumCoverage(reports);
      const text = runCoverageText(run);
      if (options.file !== undefined) {
        const file = resolve(project.config.root, options.file);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, `${JSON.stringify(run, null, 2)}\n`);
      }
      if (options.failOnDead && run.dead > 0) {
        // Vitest reports an error thrown by a global teardown but exits 0: the exit code is set here.
        console.error(`${text}\nmockpoint: DEAD_MOCKS: ${run.dead} never hit, the run fails (coverage.failOnDead)`);
        process.exitCode = 1;
      } else console.log(text);
    },
  };
}
