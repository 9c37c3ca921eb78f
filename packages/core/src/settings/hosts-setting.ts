/**
 * The per-name setting `hosts`: the host patterns mapped to the name through the API, in the order
 * set; `[]` holds nothing (docs/https.md). The route keeps the host table beside it (`http/routes/hosts.ts`).
 *
 * @module
 */
import { z } from 'zod';
import { onFirstUse } from '../cache/on-first-use.js';
import {
  checkHostCount,
  HOST_PATTERN_FORMS,
  type HostMove,
  MAX_HOSTS_PER_NAME,
  parseHostPattern,
} from '../pattern/host-mapping.js';
import { MockpointError } from '../registry/errors.js';
import { objectBody } from './object-body.js';
import {
  BODY_LIMIT,
  type FileCheck,
  type NameSetting,
  type SettingFile,
  type SettingInput,
} from './setting-declaration.js';

/** The hosts of a stored text; throws on anything but an array of strings. */
function decodeHosts(text: string): string[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || value.some((host) => typeof host !== 'string')) {
    throw new TypeError('stored hosts are not a list of strings');
  }
  return value as string[];
}

const input = onFirstUse(() =>
  z.strictObject({
    hosts: z
      .array(z.string())
      .max(MAX_HOSTS_PER_NAME)
      .meta({ description: `Host patterns: \`api.example.com\`, \`*.example.com\`; at most ${MAX_HOSTS_PER_NAME}.` }),
  }),
);

/** The hosts of a PUT body: `{ hosts: [...] }` and nothing else. */
function hostsOf(body: Record<string, unknown>): string[] {
  for (const key of Object.keys(body)) {
    if (key !== 'hosts')
      throw new MockpointError('UNKNOWN_FIELD', `unknown field "${key.slice(0, 100)}"; give { hosts: [...] }`);
  }
  const { hosts } = body;
  if (!Array.isArray(hosts) || hosts.some((host) => typeof host !== 'string')) {
    throw new MockpointError(
      'INVALID_HOSTS',
      '`hosts` must be a list of host names, e.g. { "hosts": ["api.example.com"] }',
    );
  }
  checkHostCount(hosts.length);
  return hosts as string[];
}

/** A file endpoint's `hosts:` as patterns, sorted; a bad one, or one an earlier endpoint of the file has, is refused. */
function fileHosts(value: unknown, file: FileCheck): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  // Refused here, with the rest of the file's checks: before anything of the file is written.
  checkHostCount(value.length);
  const out: string[] = [];
  value.forEach((host: unknown, k) => {
    const pattern = typeof host === 'string' ? parseHostPattern(host) : undefined;
    if (pattern === undefined) {
      throw new MockpointError(
        'INVALID_HOSTS',
        `${JSON.stringify(host)?.slice(0, 200)} is not a host pattern: give ${HOST_PATTERN_FORMS}`,
        { details: { at: [k] } },
      );
    }
    const other = file.seen.get(pattern);
    if (other !== undefined && other !== file.endpoint) {
      throw new MockpointError('HOST_TAKEN', `"${pattern}" is already mapped by endpoints[${other}]`, {
        details: { at: [k] },
      });
    }
    file.seen.set(pattern, file.endpoint);
    if (!out.includes(pattern)) out.push(pattern);
  });
  return out.sort();
}

export const hostsSetting = {
  key: 'hosts',
  label: 'hosts',
  encode: (hosts: readonly string[]) => (hosts.length === 0 ? undefined : JSON.stringify(hosts)),
  decode: decodeHosts,
  limit: BODY_LIMIT,
  input: {
    schema: () => input(),
    read: async (request, limits) => hostsOf(await objectBody(request, limits.maxBodyBytes)),
  } satisfies SettingInput<string[]> as SettingInput<string[]>,
  file: {
    member: () =>
      z
        .array(z.string())
        .optional()
        .describe(
          'Hosts that pick this endpoint: a request with that Host (or, through the forward proxy, that target) is answered here, its whole path the subpath; api.example.com, *.example.com (docs/https.md).',
        ),
    check: fileHosts,
    read: async (get) => {
      // A daemon older than host mappings answers 404: it holds none.
      const text = await get('hosts');
      const hosts = text === undefined ? [] : (JSON.parse(text) as { hosts: { host: string; source: string }[] }).hosts;
      // Those of MOCKPOINT_HOSTS are the daemon's settings, not the endpoint's: a file never holds them.
      const own = hosts.filter((entry) => entry.source === 'api').map((entry) => entry.host);
      return own.length > 0 ? own.sort() : undefined;
    },
    body: (hosts) => JSON.stringify({ hosts }),
    entry: (hosts) => hosts,
    // The file wins for its hosts: one another endpoint holds through the API moves here (those of MOCKPOINT_HOSTS never).
    put: {
      query: 'move=true',
      moved: (answer) => {
        // A daemon that answers no `moved` does not know `move` (older than 2026-11): it moved nothing.
        const moved = (JSON.parse(answer) as { moved?: unknown }).moved;
        return Array.isArray(moved) ? (moved as HostMove[]) : [];
      },
    },
    clear: { unknown: false, olderOk: false },
  } satisfies SettingFile<string[]> as SettingFile<string[]>,
} satisfies NameSetting<readonly string[], string[]>;
