// The front door on its own (docs/design.md#one-path): where a request goes from its head, read alike from
// Node's raw headers and a Fetch request's `Headers`; and the guard that keeps it the one place
// that chooses a namespace or maps a host.
import { readdirSync, readFileSync } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { NODE_HEAD } from '../adapter/node/endpoint-request.js';
import { PASS_THROUGH } from '../hosts/host-routing.js';
import { HostTable } from '../hosts/host-table.js';
import { FETCH_HEAD, type Front, front, type Routing } from './front.js';

const HOST = 'api.example.test';

/** A request's head as the test sends it: origin-form or absolute-form target, raw header lines. */
interface Head {
  method?: string;
  target: string;
  headers?: [string, string][];
  localPort?: number;
}

/** `head` as Node's parser gives it: a real `IncomingMessage` with its raw headers. */
function nodeRequest(head: Head): IncomingMessage {
  const socket = new Socket();
  if (head.localPort !== undefined) Object.defineProperty(socket, 'localPort', { value: head.localPort });
  const req = new IncomingMessage(socket);
  req.method = head.method ?? 'GET';
  req.url = head.target;
  req.rawHeaders = (head.headers ?? []).flat();
  return req;
}

/** `head` as a Fetch runtime gives it (an origin-form target only: a Fetch request's URL is absolute). */
function fetchRequest(head: Head): Request {
  const host = head.headers?.find(([name]) => name.toLowerCase() === 'host')?.[1] ?? 'localhost';
  return new Request(`http://${host}${head.target}`, { method: head.method ?? 'GET', headers: head.headers });
}

function routing(over: Partial<Routing> = {}): Routing {
  return {
    hosts: new HostTable([{ host: HOST, name: 'ex' }]),
    allowedHosts: [],
    namespaces: true,
    ...over,
  };
}

/** The front door's answer for `head` on Node, asserting the Fetch reader gives the same (origin-form). */
function decide(head: Head, over: Partial<Routing> = {}): Front {
  const routed = routing(over);
  const onNode = front(nodeRequest(head), NODE_HEAD, routed);
  if (head.target.startsWith('/')) expect(front(fetchRequest(head), FETCH_HEAD, routed)).toEqual(onNode);
  return onNode;
}

describe('a namespace by path', () => {
  it('takes /ns/{ns} off the target, query and percent-encoding kept, and reads no header then', () => {
    expect(decide({ target: '/ns/t1/endpoint/a/%41?x=1', headers: [['mockpoint-session', 'other']] })).toMatchObject({
      kind: 'namespace',
      name: 't1',
      rest: '/endpoint/a/%41?x=1',
      page: undefined,
      refused: undefined,
    });
  });

  it('sends a GET of /ns/{ns} alone to its page, query kept; another method below it', () => {
    expect(decide({ target: '/ns/t1?q=1' })).toMatchObject({ name: 't1', rest: '/?q=1', page: '/ns/t1/?q=1' });
    expect(decide({ method: 'POST', target: '/ns/t1' })).toMatchObject({ name: 't1', rest: '/', page: undefined });
  });

  it('is no namespace on an app without them: the app answers /ns/… itself', () => {
    expect(decide({ target: '/ns/t1/endpoint/a' }, { namespaces: false })).toBeUndefined();
    expect(decide({ target: '/endpoint/a', headers: [['mockpoint-session', 't1']] }, { namespaces: false })).toBe(
      '/endpoint/a',
    );
  });
});

describe('a namespace by header', () => {
  it('reads mockpoint-session, then the baggage entry, from raw headers and Headers alike', () => {
    expect(decide({ target: '/endpoint/a', headers: [['Mockpoint-Session', ' t1 ']] })).toMatchObject({
      kind: 'namespace',
      name: 't1',
      rest: undefined,
    });
    const baggage = decide({ target: '/api/x', headers: [['baggage', 'k=v, mockpoint-session=t%2D2;p']] });
    expect(baggage).toMatchObject({ name: 't-2', rest: undefined, refused: undefined });
  });

  it('sent twice: one name twice is it, two names are refused on Node as on the Fetch path', () => {
    const twice = (a: string, b: string) =>
      decide({
        target: '/endpoint/a',
        headers: [
          ['mockpoint-session', a],
          ['mockpoint-session', b],
        ],
      });
    expect(twice('t1', 't1')).toMatchObject({ name: 't1', refused: undefined });
    // Node's listener took the first (`t1`) and the Fetch path refused: now both refuse.
    const two = twice('t1', 't2');
    expect(two).toMatchObject({ kind: 'namespace', name: 't1, t2' });
    expect(two !== undefined && typeof two === 'object' && 'refused' in two && two.refused?.code).toBe(
      'NAMESPACE_NOT_FOUND',
    );
  });

  it('names none, and the request is the default namespace’s, without either', () => {
    expect(decide({ target: '/endpoint/a', headers: [['baggage', 'k=v']] })).toBe('/endpoint/a');
    expect(decide({ target: '/api/endpoints' })).toBeUndefined();
  });

  it('gives an unknown name as sent (the namespace table says whether it exists); refuses one no namespace can have', () => {
    expect(decide({ target: '/ns/nobody-yet/endpoint/a' })).toMatchObject({ name: 'nobody-yet', refused: undefined });
    for (const head of [
      { target: '/ns/a%20b/endpoint/a' },
      { target: '/ns//endpoint/a' },
      { target: '/endpoint/a', headers: [['mockpoint-session', 'é']] as [string, string][] },
    ]) {
      const chosen = decide(head);
      expect(chosen).toMatchObject({ kind: 'namespace', refused: { code: 'NAMESPACE_NOT_FOUND', status: 404 } });
    }
  });
});

describe('a mapped host', () => {
  it('keeps every path, /ns/… too, for its endpoint, with the host for the journal', () => {
    for (const target of ['/ns/team/list?x=1', '/endpoint/a', '/']) {
      expect(decide({ target, headers: [['Host', HOST]] })).toEqual({
        kind: 'endpoint',
        target: `/endpoint/ex${target}`,
        host: HOST,
      });
    }
  });

  it('takes its namespace by header alone', () => {
    const chosen = decide({
      target: '/ns/team/list',
      headers: [
        ['Host', HOST],
        ['mockpoint-session', 'team'],
      ],
    });
    expect(chosen).toMatchObject({ kind: 'namespace', name: 'team', rest: undefined });
  });

  it('leaves the daemon’s own host to the path', () => {
    expect(decide({ target: '/ns/team/endpoint/a', headers: [['Host', 'localhost']] })).toMatchObject({
      name: 'team',
      rest: '/endpoint/a',
    });
    expect(decide({ target: '/endpoint/a', headers: [['Host', 'localhost']] })).toBe('/endpoint/a');
  });

  it('on Node, an absolute-form target names its host: mapped, its endpoint; else refused or passed through', () => {
    expect(decide({ target: `http://${HOST}/repos?x=1`, headers: [['Host', 'other']] })).toEqual({
      kind: 'endpoint',
      target: '/endpoint/ex/repos?x=1',
      host: HOST,
    });
    const refused = decide({ target: 'http://unmapped.test/x' });
    expect(refused).toMatchObject({ kind: 'refused', answer: { status: 403 } });
    expect(decide({ target: 'http://unmapped.test/x' }, { passThrough: true })).toBe(PASS_THROUGH);
    // The daemon's own address, on the port the request came in on: as before; on another, passed through.
    expect(decide({ target: 'http://127.0.0.1:80/endpoint/a', localPort: 80 }, { passThrough: true })).toEqual({
      kind: 'endpoint',
      target: '/endpoint/a',
      host: '127.0.0.1:80',
    });
    expect(decide({ target: 'http://127.0.0.1:81/endpoint/a', localPort: 80 }, { passThrough: true })).toBe(
      PASS_THROUGH,
    );
    expect(decide({ target: 'http://127.0.0.1:81?next=/endpoint/a' })).toBeUndefined();
  });
});

describe('a --serve port', () => {
  it('gives every request its one endpoint, the whole path the subpath, /ns/… too', () => {
    for (const target of ['/repos/a?x=1', '/ns/t1/x', '/api/endpoints']) {
      expect(decide({ target, headers: [['Host', HOST]] }, { endpoint: 'github' })).toEqual({
        kind: 'endpoint',
        target: `/endpoint/github${target}`,
        host: undefined,
      });
    }
  });

  it('takes a namespace by header alone', () => {
    expect(
      decide({ target: '/ns/t1/x', headers: [['mockpoint-session', 's1']] }, { endpoint: 'github' }),
    ).toMatchObject({ kind: 'namespace', name: 's1', rest: undefined });
  });
});

describe('hostile heads', () => {
  it('a very long session value or path is refused with a bounded message, or routed, not thrown on', () => {
    const long = 'a'.repeat(100_000);
    const bySession = decide({ target: '/endpoint/a', headers: [['mockpoint-session', long]] });
    expect(bySession).toMatchObject({ refused: { code: 'NAMESPACE_NOT_FOUND' } });
    const message = (bySession as { refused: Error }).refused.message;
    expect(message.length).toBeLessThan(200);
    expect(decide({ target: `/ns/${long}/x` })).toMatchObject({ refused: { code: 'NAMESPACE_NOT_FOUND' } });
    expect(decide({ target: `/endpoint/${long}` })).toBe(`/endpoint/${long}`);
    // A Host no name can match maps nothing (on Node: no Fetch URL can hold it).
    const hostile = nodeRequest({ target: '/ns/t1/x', headers: [['Host', `${long}:99999`]] });
    expect(front(hostile, NODE_HEAD, routing())).toMatchObject({ name: 't1' });
  });

  it('odd values name no namespace they do not spell', () => {
    const odd: [string, string][] = [
      ['mockpoint-session', 't1,,t1'],
      ['mockpoint-session', ' , '],
      ['mockpoint-session', '../t1'],
      ['mockpoint-session', 't1\tt1'],
    ];
    for (const header of odd) {
      expect(decide({ target: '/endpoint/a', headers: [header] }), header[1]).toMatchObject({
        refused: { code: 'NAMESPACE_NOT_FOUND' },
      });
    }
    // An oversized or undecodable baggage names none: the request is the default namespace's.
    expect(decide({ target: '/endpoint/a', headers: [['baggage', `mockpoint-session=t1,${'x'.repeat(9000)}`]] })).toBe(
      '/endpoint/a',
    );
    expect(decide({ target: '/endpoint/a', headers: [['baggage', 'mockpoint-session=%E0%A4%A']] })).toBe('/endpoint/a');
  });

  it('odd targets on Node: `*`, an authority alone, a scheme without one', () => {
    for (const target of ['*', 'http://', 'http://?x', 'localhost:80']) {
      expect(() => front(nodeRequest({ target, method: 'OPTIONS' }), NODE_HEAD, routing())).not.toThrow();
    }
    expect(front(nodeRequest({ target: '*', method: 'OPTIONS' }), NODE_HEAD, routing())).toBeUndefined();
  });
});

// ---- the guard: one front door ----

const PACKAGES = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every `.ts` file of the packages' sources and tests (not their dependencies or builds). */
function tsFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...tsFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** The files (relative to `packages/`) whose code names one of `names`: comments and strings are not code. */
function filesNaming(names: readonly string[]): Map<string, string[]> {
  const naming = new Map<string, string[]>();
  for (const file of tsFiles(PACKAGES)) {
    const text = readFileSync(file, 'utf8');
    if (!names.some((name) => text.includes(name))) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
    const found = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && names.includes(node.text)) found.add(node.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (found.size > 0) naming.set(relative(PACKAGES, file).split('\\').join('/'), [...found]);
  }
  return naming;
}

describe('one front door', () => {
  it('chooses a namespace and maps a host in one module: chooseNamespace and routeByHost have it as their one caller', () => {
    const naming = filesNaming(['chooseNamespace', 'routeByHost']);
    // Where each is defined, the front door, and chooseNamespace's own unit test.
    expect([...naming.keys()].sort()).toEqual([
      'core/src/hosts/host-routing.ts',
      'core/src/http/front.ts',
      'core/src/http/namespace-choice.test.ts',
      'core/src/http/namespace-choice.ts',
    ]);
    expect(naming.get('core/src/http/front.ts')?.sort()).toEqual(['chooseNamespace', 'routeByHost']);
  });
});
