/**
 * The chaos of one name, in its detail view: what is injected now (the share
 * of requests, the faults, the seed, a latency or bandwidth set through the
 * API), or, when the name has none, whether the namespace's chaos applies to
 * it; a form to switch it on or change it (share in %, faults, seed) that keeps
 * a latency and bandwidth set elsewhere; "Turn off". Errors from the API show
 * with their code. Injected faults are marked in the journal (entry-marks.ts).
 *
 * @module
 */
import type { ChaosFault, ChaosSettings } from '@mockpoint/core/client';
import { api, isApiFailure } from './api.js';
import { h, onEscape, onSubmit, toast } from './dom.js';
import { PanelWrites, panel, problemSlot } from './panel-actions.js';
import { report } from './report.js';

const FAULTS: readonly ChaosFault[] = ['reset', 'timeout', '500', '503', '429'];

/** The chaos in one line: `20% of requests get 503 or reset · seed 7 · latency uniform · 64000 B/s`. */
export function describeChaos(chaos: ChaosSettings): string {
  const share = `${Math.round(chaos.rate * 1000) / 10}%`;
  return [
    `${share} of requests get ${chaos.faults.join(' or ')}`,
    chaos.seed === undefined ? 'random' : `seed ${chaos.seed}`,
    chaos.latency === undefined ? '' : `latency ${chaos.latency.distribution}`,
    chaos.bandwidth === undefined ? '' : `${chaos.bandwidth} B/s`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Reads one chaos; `null` when there is none, `undefined` when it cannot be read. */
async function readChaos(read: () => Promise<ChaosSettings>): Promise<ChaosSettings | null | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isApiFailure(error) && error.code === 'NOT_FOUND') return null;
    if (!isApiFailure(error)) report(error);
    return undefined;
  }
}

/** The chaos panel of `name`. */
export class ChaosView {
  readonly el: HTMLElement;
  readonly #name: string;
  readonly #current: HTMLElement;
  readonly #form: HTMLFormElement;
  readonly #toggle: HTMLButtonElement;
  readonly #off: HTMLButtonElement;
  readonly #writes: PanelWrites;
  readonly #rate: HTMLInputElement;
  readonly #faults: Map<ChaosFault, HTMLInputElement>;
  readonly #seed: HTMLInputElement;
  readonly #save: HTMLButtonElement;
  #settings: ChaosSettings | null = null;
  #shown: string | undefined;

  constructor(name: string) {
    this.#name = name;
    this.#current = h('p', { class: 'chaos-current', id: 'chaos-current' });
    const problem = problemSlot('chaos-problem');
    this.#writes = new PanelWrites(problem, 'chaos-token');
    this.#rate = h('input', {
      type: 'number',
      id: 'chaos-rate',
      name: 'rate',
      min: '0',
      max: '100',
      step: 'any',
      value: '20',
      inputMode: 'decimal',
    });
    this.#seed = h('input', { type: 'number', id: 'chaos-seed', name: 'seed', step: '1', inputMode: 'numeric' });
    this.#faults = new Map(
      FAULTS.map((fault) => [
        fault,
        h('input', {
          type: 'checkbox',
          id: `chaos-fault-${fault}`,
          name: 'faults',
          value: fault,
          checked: fault === '503',
        }),
      ]),
    );
    this.#save = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Save chaos');
    const cancel = h('button', { type: 'button', class: 'btn' }, 'Cancel');
    cancel.addEventListener('click', () => this.#open(false));
    this.#form = h(
      'form',
      { class: 'chaos-form', id: 'chaos-form', noValidate: true, hidden: true },
      h(
        'div',
        { class: 'field-row two' },
        h('div', { class: 'field' }, h('label', { for: 'chaos-rate' }, 'Requests faulted (%)'), this.#rate),
        h('div', { class: 'field' }, h('label', { for: 'chaos-seed' }, 'Seed (optional)'), this.#seed),
      ),
      h(
        'fieldset',
        { class: 'chaos-faults' },
        h('legend', null, 'Faults, each equally likely'),
        [...this.#faults].map(([fault, box]) => h('label', { class: 'check', for: box.id }, box, ` ${fault}`)),
      ),
      h('div', { class: 'actions' }, this.#save, cancel),
    );
    onSubmit(this.#form, () => void this.#put());
    onEscape(this.#form, () => this.#open(false));
    this.#toggle = h(
      'button',
      { type: 'button', class: 'btn', 'aria-expanded': 'false', 'aria-controls': 'chaos-form' },
      'Turn on',
    );
    this.#toggle.addEventListener('click', () => this.#open(this.#form.hidden));
    this.#off = h('button', { type: 'button', class: 'btn btn-danger', hidden: true }, 'Turn off');
    this.#off.addEventListener('click', () => void this.#clear());
    this.el = panel(
      'chaos',
      'Chaos',
      null,
      this.#current,
      h('div', { class: 'actions chaos-actions' }, this.#toggle, this.#off),
      problem,
      this.#form,
    );
  }

  /** Reads the name's chaos and the namespace's; resolves with whether the name has its own (undefined when it cannot be read). */
  async load(): Promise<boolean | undefined> {
    const [own, namespace] = await Promise.all([
      readChaos(() => api.getChaos(this.#name)),
      readChaos(() => api.getNamespaceChaos()),
    ]);
    if (own === undefined) return undefined;
    this.#show(own, namespace ?? null);
    return own !== null;
  }

  #show(own: ChaosSettings | null, namespace: ChaosSettings | null): void {
    this.#settings = own;
    const key = JSON.stringify([own, namespace]);
    if (key === this.#shown) return;
    this.#shown = key;
    this.#current.textContent = own
      ? `On: ${describeChaos(own)}`
      : namespace
        ? `Off for this endpoint; the namespace's chaos applies: ${describeChaos(namespace)}`
        : 'Off: every request is answered as set. Turn it on to fail a share of the requests.';
    this.#current.classList.toggle('empty', own === null);
    this.#current.classList.toggle('chaos-on', own !== null);
    this.#off.hidden = own === null;
    this.#toggle.textContent = own ? 'Change' : 'Turn on';
    if (own && this.#form.hidden) {
      this.#rate.value = String(Math.round(own.rate * 100_000) / 1000);
      this.#seed.value = own.seed === undefined ? '' : String(own.seed);
      for (const [fault, box] of this.#faults) box.checked = own.faults.includes(fault);
    }
  }

  #open(open: boolean): void {
    this.#form.hidden = !open;
    this.#toggle.setAttribute('aria-expanded', String(open));
    if (open) this.#rate.focus();
    else this.#toggle.focus();
  }

  /** The form as the API's input (a bad value is the server's to refuse, with its code); latency and bandwidth kept. */
  #input(): ChaosSettings {
    const input: ChaosSettings = {
      rate: Number(this.#rate.value.trim() || 'NaN') / 100,
      faults: [...this.#faults].filter(([, box]) => box.checked).map(([fault]) => fault),
    };
    if (this.#settings?.latency !== undefined) input.latency = this.#settings.latency;
    if (this.#settings?.bandwidth !== undefined) input.bandwidth = this.#settings.bandwidth;
    const seed = this.#seed.value.trim();
    if (seed !== '') input.seed = Number(seed);
    return input;
  }

  async #put(): Promise<void> {
    await this.#writes.run(this.#save, 'save the chaos', async () => {
      const saved = await api.setChaos(this.#name, this.#input());
      this.#open(false);
      toast(`Chaos on for ${this.#name}: ${describeChaos(saved)}`);
      await this.load();
    });
  }

  async #clear(): Promise<void> {
    await this.#writes.run(this.#off, 'turn the chaos off', async () => {
      await api.clearChaos(this.#name);
      toast(`Chaos off for ${this.#name}`);
      await this.load();
    });
  }
}
