/**
 * An endpoint's chaos as the pipeline plays it: one seeded generator per name
 * that decides, request by request, whether a fault is injected, which one, and
 * the latency drawn; and the plans by name, in front of the store (as
 * `webhook/signature-check-cache.ts` holds the signature checks).
 *
 * @module
 */

import type { ChaosFault, ChaosSettings } from '../../wire/chaos.js';
import { drawLatency } from '../../wire/latency.js';
import { type Random, randomSeed, seededRandom } from '../../wire/seeded-random.js';

/** What chaos does to one request: a fault, or none; and the delay added to its answer. */
export interface ChaosDecision {
  readonly fault: ChaosFault | undefined;
  readonly delay: number;
}

/**
 * The decisions of one endpoint's chaos, in order: from the settings' seed, the
 * same sequence every time the settings are set (each replica draws its own).
 */
export class ChaosPlan {
  readonly settings: ChaosSettings;
  readonly #random: Random;

  constructor(settings: ChaosSettings) {
    this.settings = settings;
    this.#random = seededRandom(settings.seed ?? randomSeed());
  }

  /** The next request's decision: two draws (fault or not, which), then the latency's. */
  next(): ChaosDecision {
    const { rate, faults, latency } = this.settings;
    const hit = this.#random() < rate;
    const pick = this.#random();
    const fault = hit ? faults[Math.min(faults.length - 1, Math.floor(pick * faults.length))] : undefined;
    const delay = latency === undefined ? 0 : drawLatency(latency, this.#random);
    return { fault, delay };
  }
}

/**
 * The chaos plans known here by name, `null` remembering "none" so the read path
 * of a name without chaos asks the store nothing more. Bounded by count: past
 * {@link ChaosPlanCache.maxNames} the least recently set are forgotten.
 */
export class ChaosPlanCache {
  readonly maxNames: number;
  readonly #entries = new Map<string, ChaosPlan | null>();

  constructor(maxNames = 100_000) {
    this.maxNames = maxNames;
  }

  /** The plan, `null` for "none", `undefined` when not known here. */
  get(name: string): ChaosPlan | null | undefined {
    return this.#entries.get(name);
  }

  set(name: string, plan: ChaosPlan | null): void {
    this.#entries.delete(name);
    this.#entries.set(name, plan);
    if (this.#entries.size > this.maxNames) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  delete(name: string): void {
    this.#entries.delete(name);
  }

  clear(): void {
    this.#entries.clear();
  }
}
