/**
 * The order `pnpm test` starts its files in (the root config's `sequence.sequencer`): the known slow
 * files first, longest first, so that no long file starts near the end while the other workers have
 * nothing left to take (a tail of idle workers). Vitest's own order on a fresh clone, with no results
 * cache, is project by project in name order and within a project the largest file first: the
 * vitest-plugin project's child-Vitest files (doc-snippets, vitest-run, published-types) came near
 * the end of the run. What stays as Vitest has it:
 *
 * - `sequence.groupOrder` first: the `clone` project still runs alone and last;
 * - a project that runs without isolation (`isolate: false`: core, server-web) stays one block in
 *   Vitest's order, since a worker keeps its process (and its Chromium) for the next file only when
 *   the next queued file is of the same project; the block takes its place by its summed estimate
 *   over the workers;
 * - the files not in SLOW_TEST_FILES keep Vitest's order, after the slow ones.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOW_TEST_FILES } from './slow-test-files.js';

/** Files that are started together: one isolated file, or every file of a project without isolation. */
interface Unit {
  specs: TestSpecification[];
  groupOrder: number;
  /** Seconds the unit holds the workers, as known: a block's summed durations over the workers. */
  estimate: number;
  /** Where Vitest's own order put its first file: the tie-breaker. */
  first: number;
}

export class SlowFirstSequencer extends BaseSequencer {
  /** The key Vitest's results cache uses: `project:path from the root`. */
  keyOf(spec: TestSpecification): string {
    return `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
  }

  estimateOf(spec: TestSpecification): number {
    return SLOW_TEST_FILES[this.keyOf(spec)] ?? 0;
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const vitestOrder = await super.sort(files);
    const units = new Map<string, Unit>();
    vitestOrder.forEach((spec, index) => {
      const { config } = spec.project;
      const groupOrder = config.sequence.groupOrder ?? 0;
      const key = config.isolate === false ? `${groupOrder} ${spec.project.name}` : `file ${index}`;
      const unit = units.get(key) ?? { specs: [], groupOrder, estimate: 0, first: index };
      unit.specs.push(spec);
      const workers = config.isolate === false ? (config.maxWorkers ?? this.ctx.config.maxWorkers ?? 1) : 1;
      unit.estimate += this.estimateOf(spec) / workers;
      units.set(key, unit);
    });
    const byEstimate = (a: TestSpecification, b: TestSpecification) => this.estimateOf(b) - this.estimateOf(a);
    return [...units.values()]
      .sort((a, b) => a.groupOrder - b.groupOrder || b.estimate - a.estimate || a.first - b.first)
      .flatMap((unit) => [...unit.specs].sort(byEstimate));
  }
}
