/**
 * The scenarios of every endpoint in this process's memory; with a
 * {@link StateLog} every change is written through to it before it is
 * acknowledged (the LevelDB store gives one), and what the log holds is loaded
 * at open. In the log, each scenario's current value and its start are one key
 * each, so a move writes only the scenarios it moves.
 *
 * @module
 */

import { checkStates, type StateStore, type States, statesAt } from '../../state/state-store.js';
import { type WriteLog, WriteThroughStore } from '../change-gate.js';

/** Where a {@link MemoryStateStore} writes through to: keys and values, in atomic durable batches. */
export type StateLog = WriteLog;

type LogChange = Parameters<WriteLog['write']>[0][number];

/** One endpoint's scenarios: as they are, and their start. */
interface Held {
  current: States;
  start: States;
}

const SEP = '\u0000';
const currentKey = (name: string, scenario: string) => `c${SEP}${name}${SEP}${scenario}`;
const startKey = (name: string, scenario: string) => `s${SEP}${name}${SEP}${scenario}`;
const EMPTY: Held = Object.freeze({ current: Object.freeze({}), start: Object.freeze({}) });

export class MemoryStateStore extends WriteThroughStore<StateLog> implements StateStore {
  readonly #held = new Map<string, Held>();

  /** A store holding what `log` holds, writing through to it. */
  static async open(log: StateLog): Promise<MemoryStateStore> {
    const store = new MemoryStateStore({ log });
    const filling = new Map<string, { current: Record<string, string>; start: Record<string, string> }>();
    for (const [key, value] of await log.load()) {
      const [kind, name, scenario] = key.split(SEP) as [string, string, string];
      if (name === undefined || scenario === undefined) continue;
      let held = filling.get(name);
      if (held === undefined) {
        held = { current: {}, start: {} };
        filling.set(name, held);
      }
      if (kind === 'c') held.current[scenario] = value;
      else if (kind === 's') held.start[scenario] = value;
    }
    for (const [name, held] of filling) store.#held.set(name, held);
    return store;
  }

  async get(name: string): Promise<States> {
    return (this.#held.get(name) ?? EMPTY).current;
  }

  async getStart(name: string): Promise<States> {
    return (this.#held.get(name) ?? EMPTY).start;
  }

  async move(name: string, expect: States, to: States): Promise<States | undefined> {
    checkStates(to);
    return this.gate.change(name, async () => {
      const held = this.#held.get(name) ?? EMPTY;
      if (!statesAt(held.current, expect)) return undefined;
      const changes: LogChange[] = [];
      const current: Record<string, string> = { ...held.current };
      for (const [scenario, value] of Object.entries(to)) {
        if (current[scenario] === value) continue;
        current[scenario] = value;
        changes.push({ key: currentKey(name, scenario), value });
      }
      if (changes.length === 0) return held.current;
      await this.log?.write(changes);
      this.#held.set(name, { current, start: held.start });
      return current;
    });
  }

  async put(name: string, states: States): Promise<void> {
    checkStates(states);
    return this.gate.change(name, async () => {
      const changes = this.#dropChanges(name);
      for (const [scenario, value] of Object.entries(states)) {
        changes.push({ key: currentKey(name, scenario), value }, { key: startKey(name, scenario), value });
      }
      await this.log?.write(changes);
      // Nothing put is no state at all (as the log then holds none of it).
      if (Object.keys(states).length === 0) this.#held.delete(name);
      else this.#held.set(name, { current: { ...states }, start: { ...states } });
    });
  }

  reset(name: string): Promise<void> {
    return this.gate.change(name, async () => {
      const held = this.#held.get(name);
      if (held === undefined) return;
      const changes: LogChange[] = [];
      for (const scenario of Object.keys(held.current)) {
        if (!Object.hasOwn(held.start, scenario)) changes.push({ key: currentKey(name, scenario), value: undefined });
      }
      for (const [scenario, value] of Object.entries(held.start)) {
        if (held.current[scenario] !== value) changes.push({ key: currentKey(name, scenario), value });
      }
      if (changes.length > 0) await this.log?.write(changes);
      this.#held.set(name, { current: { ...held.start }, start: held.start });
    });
  }

  delete(name: string): Promise<boolean> {
    return this.gate.change(name, async () => {
      const changes = this.#dropChanges(name);
      if (changes.length > 0) await this.log?.write(changes);
      return this.#held.delete(name);
    });
  }

  async names(): Promise<string[]> {
    return [...this.#held.keys()];
  }

  /** The log changes that remove every scenario and start of `name`. */
  #dropChanges(name: string): LogChange[] {
    const held = this.#held.get(name) ?? EMPTY;
    return [
      ...Object.keys(held.current).map((scenario) => ({ key: currentKey(name, scenario), value: undefined })),
      ...Object.keys(held.start).map((scenario) => ({ key: startKey(name, scenario), value: undefined })),
    ];
  }

  clear(): Promise<void> {
    return this.gate.clear(async () => {
      await this.log?.clear();
      this.#held.clear();
    });
  }
}
