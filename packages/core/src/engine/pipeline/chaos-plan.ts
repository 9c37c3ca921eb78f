/**
 * An endpoint's chaos as the pipeline plays it: one seeded generator per name
 * that decides, request by request, whether a fault is injected, which one, and
 * the latency drawn; and the plans by name, in front of the store (as
 * `webhook/signature-check-cache.ts` holds the signature checks).
 *
 * @module
 */

import type { ChaosFault, ChaosSettings } from '../../api/chaos.js';
import { drawLatency } from '../../random/latency.js';
import { type Random, randomSeed, seededRandom } from '../../random/seeded-random.js';

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
