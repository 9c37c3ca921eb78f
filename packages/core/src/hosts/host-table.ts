/**
 * Which endpoint a host picks: the mappings of the settings (`MOCKPOINT_HOSTS`,
 * `createApp({ hosts })`), fixed for the app's life, and those set per endpoint
 * through the admin API (a mock file's `hosts:` is applied through it), which
 * are kept in the store and loaded here from it (see `StoredHosts`). Every
 * adapter asks {@link HostTable.lookup} once per request, and only when
 * {@link HostTable.size} is not 0, so a daemon that maps no host pays one check.
 *
 * @module
 */

import {
  checkHostCount,
  type HostEntry,
  type HostMapping,
  hostOfHeader,
  parseHostPattern,
} from '../pattern/host-mapping.js';
import { MockpointError } from '../registry/errors.js';

export class HostTable {
  /** Host pattern → entry; a `*.name` pattern is kept under its own text. */
  readonly #entries = new Map<string, HostEntry>();
  #wildcards = 0;

  constructor(fixed: readonly HostMapping[] = []) {
    for (const { host, name } of fixed) {
      const pattern = parseHostPattern(host);
      if (pattern === undefined) throw new MockpointError('INVALID_HOSTS', `"${host}" is not a host pattern`);
      this.#add({ host: pattern, name, source: 'settings' });
    }
  }

  /** How many hosts are mapped: 0 means no request needs a look at its Host. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The endpoint name `hostHeader` (a Host header value or a target's authority,
   * port allowed) maps to: its exact name first, then the nearest `*.` pattern
   * above it (`*.stripe.com` maps `api.stripe.com` and `a.b.stripe.com`, not
   * `stripe.com`).
   */
  lookup(hostHeader: string): string | undefined {
    return this.match(hostHeader)?.name;
  }

  /**
   * The mapping {@link lookup} picks for `hostHeader`, with its pattern (`host`):
   * the HTTPS side makes one certificate per pattern, not per name.
   */
  match(hostHeader: string): HostEntry | undefined {
    const host = hostOfHeader(hostHeader);
    if (host === undefined) return undefined;
    const exact = this.#entries.get(host);
    if (exact !== undefined) return exact;
    if (this.#wildcards === 0) return undefined;
    for (let dot = host.indexOf('.'); dot !== -1; dot = host.indexOf('.', dot + 1)) {
      const entry = this.#entries.get(`*${host.slice(dot)}`);
      if (entry !== undefined) return entry;
    }
    return undefined;
  }

  /** Every mapping, in host order. */
  list(): HostEntry[] {
    return [...this.#entries.values()].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
  }

  /** The mapping of exactly `pattern` (no `*.` pattern above it is looked at). */
  held(pattern: string): HostEntry | undefined {
    return this.#entries.get(pattern);
  }

  /** The hosts mapped to `name`, from both sources, in host order. */
  hostsOf(name: string): HostEntry[] {
    return this.list().filter((entry) => entry.name === name);
  }

  /**
   * Replaces the hosts the API gave `name` with `hosts` (patterns, checked here).
   * A host mapped to another name, or by the settings, is refused with
   * `HOST_TAKEN` and nothing changes; a host the settings already map to `name` is kept as it is.
   */
  setHosts(name: string, hosts: readonly string[]): HostEntry[] {
    this.load(name, this.check(name, hosts));
    return this.hostsOf(name);
  }

  /**
   * The patterns {@link setHosts} would give `name` for `hosts`, changing
   * nothing: `INVALID_HOSTS` for a bad one or too many, `HOST_TAKEN` for one
   * mapped to another name or by the settings (one the settings map to `name`
   * already is left out: it stays theirs). With `move`, a host the API gave
   * another name is taken too (the caller moves it: see {@link held}); one the
   * settings map elsewhere is still refused.
   */
  check(name: string, hosts: readonly string[], options: { move?: boolean } = {}): string[] {
    checkHostCount(hosts.length);
    const patterns: string[] = [];
    for (const host of hosts) {
      const pattern = typeof host === 'string' ? parseHostPattern(host) : undefined;
      if (pattern === undefined) {
        throw new MockpointError(
          'INVALID_HOSTS',
          `${JSON.stringify(host).slice(0, 300)} is not a host pattern: give a host name (api.example.com) or *. and a name (*.example.com); not an IP address or localhost, no port`,
        );
      }
      const held = this.#entries.get(pattern);
      if (held !== undefined && held.name !== name && !(options.move && held.source === 'api')) {
        throw new MockpointError(
          'HOST_TAKEN',
          `"${pattern}" is mapped to endpoint "${held.name}"${held.source === 'settings' ? ' by MOCKPOINT_HOSTS' : ''}; remove it there first`,
          { details: { host: pattern, name: held.name } },
        );
      }
      if (held?.source !== 'settings' && !patterns.includes(pattern)) patterns.push(pattern);
    }
    return patterns;
  }

  /**
   * Makes `patterns` the hosts the API gave `name`, as the store holds them
   * (at start, or changed by another replica): a pattern that is not one, or is
   * held by the settings or another name, is left out. Returns whether every
   * pattern was taken.
   */
  load(name: string, patterns: readonly string[]): boolean {
    this.clearHosts(name);
    let all = true;
    for (const host of patterns) {
      const pattern = parseHostPattern(host);
      const held = pattern === undefined ? undefined : this.#entries.get(pattern);
      if (pattern === undefined || (held !== undefined && held.name !== name)) all = false;
      else if (held === undefined) this.#add({ host: pattern, name, source: 'api' });
    }
    return all;
  }

  /** Removes the hosts the API gave `name` (those of the settings stay). */
  clearHosts(name: string): void {
    for (const [host, entry] of this.#entries) {
      if (entry.name === name && entry.source === 'api') this.#remove(host);
    }
  }

  /** Removes every host the API gave (a test reset: `DELETE /api/endpoints`). */
  clearAll(): void {
    for (const [host, entry] of this.#entries) if (entry.source === 'api') this.#remove(host);
  }

  #add(entry: HostEntry): void {
    if (this.#entries.has(entry.host)) {
      throw new MockpointError('INVALID_HOSTS', `"${entry.host}" is mapped twice; map each host to one endpoint`);
    }
    this.#entries.set(entry.host, entry);
    if (entry.host.startsWith('*.')) this.#wildcards++;
  }

  #remove(host: string): void {
    this.#entries.delete(host);
    if (host.startsWith('*.')) this.#wildcards--;
  }
}
