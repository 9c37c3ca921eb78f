/**
 * Applying a mock file to a daemon (or an app in this process): the file wins
 * for the names it defines and for the hosts it maps (a host another endpoint
 * holds through the API moves to the file's; one `MOCKPOINT_HOSTS` maps
 * elsewhere is refused before anything is written), other names are kept (or
 * removed with `prune`). First a plan (what is created, changed, unchanged,
 * removed, which hosts would move), then the writes: the moves answered are
 * those the daemon says it made (`moved` of `PUT …/hosts?move=true`), the plan's
 * guess only with `dryRun`.
 *
 * @module
 */
import { type ChaosSettings, chaosSettingsJson } from '../api/chaos.js';
import { quoted } from '../codec/quoted.js';
import type { HostMove } from '../pattern/host-mapping.js';
import { MockpointError } from '../registry/errors.js';
import {
  type AdminTarget,
  holdsSetting,
  knowsHostMove,
  listHosts,
  listNames,
  putHosts,
  readNamespaceChaos,
  readState,
  removeState,
  stateKey,
  writeNamespaceChaos,
  writeState,
} from './admin-calls.js';
import type { MockFile, MockFileEndpoint } from './parse-mock-file.js';
import { writeBodies } from './write-bodies.js';

/** The longest endpoint name (a name read back from a daemon or a store is shown no longer). */
const NAME_MAX = 64;

/** What applying a file does (or did), by endpoint name. */
export interface ApplyPlan {
  created: string[];
  changed: string[];
  unchanged: string[];
  removed: string[];
  /**
   * The hosts the file maps that another endpoint held, moved to the file's
   * endpoint: as the daemon answered its writes (with `dryRun`, as they stand now).
   */
  moved: HostMove[];
  /** The namespace's chaos (the file's top-level `chaos:`): `set` or `removed` when written; absent: untouched. */
  chaos?: 'set' | 'removed';
}

/** Options for {@link applyMockFile}. */
export interface ApplyOptions {
  /** Remove the names the file does not define. @default false */
  prune?: boolean;
  /** Plan only: change nothing. @default false */
  dryRun?: boolean;
}

/**
 * Makes the target hold what `file` defines, name by name, and answers the plan.
 * Each name is written as a whole (record, routes, queued answers); names whose
 * state already equals the file's are not touched.
 * @example await applyMockFile(loadMockFile('mockpoint.yaml'), { url: 'http://127.0.0.1:16540' })
 */
export async function applyMockFile(
  file: MockFile,
  target: AdminTarget,
  options: ApplyOptions = {},
): Promise<ApplyPlan> {
  const plan: ApplyPlan = { created: [], changed: [], unchanged: [], removed: [], moved: [] };
  const defined = new Set(file.endpoints.map((endpoint) => endpoint.name));
  const existing = new Set(await listNames(target));
  const writes: (() => Promise<HostMove[] | undefined>)[] = [];
  const written: MockFileEndpoint[] = [];
  for (const desired of file.endpoints) {
    const current = await readState(target, desired.name);
    const exists =
      existing.has(desired.name) ||
      current.routes.length > 0 ||
      current.queue.length > 0 ||
      current.collections !== undefined ||
      holdsSetting(current) ||
      current.state !== undefined;
    if (exists && stateKey(current) === stateKey(desired)) {
      plan.unchanged.push(desired.name);
      continue;
    }
    (exists ? plan.changed : plan.created).push(desired.name);
    written.push(desired);
    writes.push(() => writeState(target, desired, current));
  }
  // Before any write: a host MOCKPOINT_HOSTS maps elsewhere is refused here, and so is a daemon that cannot move.
  const planned = await hostMoves(target, written);
  if (options.prune) {
    for (const name of existing) {
      if (defined.has(name)) continue;
      plan.removed.push(name);
      writes.push(async () => {
        await removeState(target, name);
        return undefined;
      });
    }
  }
  // The namespace's chaos, when the file sets one that differs (a file without it leaves the namespace's as it is).
  const { chaos } = file;
  if (chaos !== undefined && !sameChaos(await readNamespaceChaos(target), chaos)) {
    plan.chaos = 'set';
    writes.push(async () => {
      await writeNamespaceChaos(target, chaos);
      return undefined;
    });
  }
  if (options.dryRun) {
    plan.moved = planned;
    return plan;
  }
  await assertCanMove(target, planned);
  // What the daemon answered: a host given away between the plan and the write is said too, a planned move it did not make is not.
  for (const write of writes) plan.moved.push(...((await write()) ?? []));
  return plan;
}

/**
 * A daemon older than `PUT …/hosts?move=true` ignores `move` and refuses a host
 * another endpoint holds (409 HOST_TAKEN) after the file's other writes: when
 * the plan moves a host, asked first, so such a daemon gets nothing written.
 */
async function assertCanMove(target: AdminTarget, planned: readonly HostMove[]): Promise<void> {
  const first = planned[0];
  if (first === undefined || (await knowsHostMove(target, first.to))) return;
  throw new MockpointError(
    'HOST_TAKEN',
    `endpoint ${quoted(first.to, NAME_MAX)} maps ${quoted(first.host, 255).slice(1, -1)}, which endpoint ${quoted(first.from, NAME_MAX)} holds, and this daemon is too old to move a host to a mock file's endpoint (PUT /api/endpoints/{name}/hosts?move=true): nothing was written; upgrade the daemon, or remove the host from endpoint ${quoted(first.from, NAME_MAX)} first`,
    { details: { host: first.host, name: first.from } },
  );
}

/** Which endpoint holds each mapped host now. */
async function hostHolders(target: AdminTarget): Promise<Map<string, string>> {
  return new Map((await listHosts(target)).map((entry) => [entry.host, entry.name]));
}

/**
 * The hosts `endpoints` map that another endpoint holds now: those the API gave
 * it move (answered, for the plan); one `MOCKPOINT_HOSTS` maps elsewhere is
 * refused with `HOST_TAKEN` here, before anything is written (the setting wins).
 */
async function hostMoves(target: AdminTarget, endpoints: readonly MockFileEndpoint[]): Promise<HostMove[]> {
  if (!endpoints.some((endpoint) => endpoint.hosts !== undefined && endpoint.hosts.length > 0)) return [];
  const held = new Map((await listHosts(target)).map((entry) => [entry.host, entry]));
  const moves: HostMove[] = [];
  for (const endpoint of endpoints) {
    // The file's hosts are parsed patterns, compared as the daemon keeps them.
    for (const host of endpoint.hosts ?? []) {
      const entry = held.get(host);
      if (entry === undefined || entry.name === endpoint.name) continue;
      if (entry.source === 'settings') {
        throw new MockpointError(
          'HOST_TAKEN',
          `endpoint ${quoted(endpoint.name, NAME_MAX)} maps ${host}, which MOCKPOINT_HOSTS maps to endpoint ${quoted(entry.name, NAME_MAX)}; the setting wins over a mock file: map the host in only one of them`,
          { details: { host, name: entry.name } },
        );
      }
      moves.push({ host, from: entry.name, to: endpoint.name });
    }
  }
  return moves;
}

/** Whether two chaos settings are the same (as stored). */
function sameChaos(a: ChaosSettings | undefined, b: ChaosSettings | undefined): boolean {
  return (a === undefined ? '' : chaosSettingsJson(a)) === (b === undefined ? '' : chaosSettingsJson(b));
}

/** One host move for a person: `api.github.com moved from endpoint "gh" to "github"`. */
export function describeMove(move: HostMove, dryRun = false): string {
  return `${quoted(move.host, 255).slice(1, -1)} ${dryRun ? 'would move' : 'moved'} from endpoint ${quoted(move.from, NAME_MAX)} to ${quoted(move.to, NAME_MAX)}`;
}

/**
 * The plan as lines for a person: `+ name` created, `~ name` changed, `> host …`
 * moved, `- name` removed, and a count.
 */
export function describePlan(plan: ApplyPlan, dryRun = false): string[] {
  const lines = [
    ...plan.created.map((name) => `+ ${name}`),
    ...plan.changed.map((name) => `~ ${name}`),
    ...plan.moved.map((move) => `> ${describeMove(move, dryRun)}`),
    ...plan.removed.map((name) => `- ${name}`),
  ];
  if (plan.chaos !== undefined) lines.push(`* namespace chaos ${dryRun ? `would be ${plan.chaos}` : plan.chaos}`);
  const verb = dryRun ? 'would be' : '';
  const count = (n: number, what: string) => `${n} ${verb ? `${verb} ` : ''}${what}`;
  const moved = plan.moved.length;
  lines.push(
    `${count(plan.created.length, 'created')}, ${count(plan.changed.length, 'changed')}, ${count(plan.removed.length, 'removed')}, ${plan.unchanged.length} unchanged${moved > 0 ? `, ${moved} ${moved === 1 ? 'host' : 'hosts'} ${verb ? `${verb} ` : ''}moved` : ''}`,
  );
  return lines;
}

/**
 * Applies only what differs between two versions of a file (for watching it):
 * endpoints that are new or changed in `next` are written, endpoints that
 * `previous` defined and `next` does not are removed. Answers the plan.
 */
export async function applyChanges(previous: MockFile, next: MockFile, target: AdminTarget): Promise<ApplyPlan> {
  const plan: ApplyPlan = { created: [], changed: [], unchanged: [], removed: [], moved: [] };
  const before = new Map(previous.endpoints.map((endpoint) => [endpoint.name, stateKey(endpoint)]));
  const names = new Set(next.endpoints.map((endpoint) => endpoint.name));
  const written = next.endpoints.filter((endpoint) => before.get(endpoint.name) !== stateKey(endpoint));
  // The file wins on every reload: an unchanged endpoint whose hosts the API gave away meanwhile takes them back.
  const mapping = next.endpoints.filter((endpoint) => endpoint.hosts !== undefined && endpoint.hosts.length > 0);
  const held = mapping.length === 0 ? new Map<string, string>() : await hostHolders(target);
  const reassert = mapping.filter(
    (endpoint) =>
      !written.includes(endpoint) && (endpoint.hosts ?? []).some((host) => held.get(host) !== endpoint.name),
  );
  await assertCanMove(target, await hostMoves(target, [...written, ...reassert]));
  for (const endpoint of next.endpoints) {
    const key = before.get(endpoint.name);
    if (!written.includes(endpoint)) {
      plan.unchanged.push(endpoint.name);
      if (reassert.includes(endpoint)) {
        plan.moved.push(...(await putHosts(target, endpoint.name, writeBodies(endpoint).settings.hosts as string)));
      }
      continue;
    }
    plan.moved.push(...(await writeState(target, endpoint)));
    (key === undefined ? plan.created : plan.changed).push(endpoint.name);
  }
  for (const endpoint of previous.endpoints) {
    if (names.has(endpoint.name)) continue;
    await removeState(target, endpoint.name);
    plan.removed.push(endpoint.name);
  }
  // The namespace's chaos: written when the file's changed, removed when taken out of the file.
  if (!sameChaos(previous.chaos, next.chaos)) {
    await writeNamespaceChaos(target, next.chaos);
    plan.chaos = next.chaos === undefined ? 'removed' : 'set';
  }
  return plan;
}
