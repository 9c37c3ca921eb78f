/**
 * A throw-away third provider, written as a folder of its own (as `packages/twins/<name>/` is:
 * `profile.json`, `document.json`, its code), and a twin catalog that loads a provider from its
 * folder alone. Its code imports nothing: a signature scheme (`Quill-Signature: t=…,s=<base64>`,
 * an HMAC-SHA512 over `t:` and the body, the event's id in `Quill-Event-Id`) and a rate-limit
 * style (`Quill-Quota-*` headers, its own 429) that the built-in lists have not, and the events
 * of its notes. The tests of it (twin-third-provider.test.ts, web-third-provider.test.ts) change
 * no file outside that folder: the engine, the signing, the deliveries and the page take it as
 * they take the providers shipped.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TwinCatalog } from '@mockpoint/core';

/** The provider's name, as its folder and its profile's `flows` say it. */
export const PROVIDER = 'quill';

const item = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const ok = (schema: string) => ({
  description: 'ok',
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const list = (schema: string) => ({
  description: 'ok',
  content: {
    'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${schema}` } } },
  },
});
const body = (schema: string) => ({
  required: true,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];

/** Its OpenAPI description: notes, the hooks that receive their events, and the events. */
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Quill', version: '1' },
  paths: {
    '/v1/notes': {
      get: { operationId: 'listNotes', responses: { 200: list('Note') } },
      post: { operationId: 'createNote', requestBody: body('Note'), responses: { 201: ok('Note') } },
    },
    '/v1/notes/{id}': { get: { operationId: 'getNote', parameters: idParam, responses: { 200: ok('Note') } } },
    '/v1/hooks': {
      get: { operationId: 'listHooks', responses: { 200: list('Hook') } },
      post: { operationId: 'createHook', requestBody: body('Hook'), responses: { 201: ok('Hook') } },
    },
    '/v1/hooks/{id}': { get: { operationId: 'getHook', parameters: idParam, responses: { 200: ok('Hook') } } },
    '/v1/events': { get: { operationId: 'listEvents', responses: { 200: list('Event') } } },
    '/v1/events/{id}': { get: { operationId: 'getEvent', parameters: idParam, responses: { 200: ok('Event') } } },
  },
  components: {
    schemas: {
      Note: item({ id: { type: 'string', readOnly: true }, text: { type: 'string' } }),
      Hook: item({ id: { type: 'string', readOnly: true }, url: { type: 'string' }, secret: { type: 'string' } }),
      Event: item({ id: { type: 'string' }, type: { type: 'string' }, data: { type: 'object' } }),
    },
  },
};

/** Its profile: its own rate-limit style, named by the profile as a shipped provider names one. */
const PROFILE = {
  name: PROVIDER,
  flows: PROVIDER,
  createStatus: 201,
  ids: { style: 'random', prefixes: { notes: 'note_', hooks: 'hook_', events: 'evt_' } },
  list: { style: 'bare' },
  rateLimit: { limit: 3, per: '1h', style: 'quill-quota' },
};

/** Its code, plain JavaScript importing nothing: its object as `packages/twins/<name>/provider.ts` exports one. */
const CODE = `
const toBase64 = (bytes) => Buffer.from(bytes).toString('base64');

/** Quill-Signature: t=<seconds>,s=<base64 of HMAC-SHA512 over "t:" and the body>. */
const scheme = {
  name: 'quill',
  title: 'Quill-Signature (HMAC-SHA512)',
  timed: true,
  idHeaders: ['quill-event-id'],
  freshId: () => 'qevt_' + crypto.randomUUID(),
  signatureHeaders: () => ['quill-signature'],
  async sign({ mac, id, timestamp }) {
    const headers = { 'quill-signature': 't=' + timestamp + ',s=' + toBase64(await mac('sha512', timestamp + ':')) };
    if (id !== undefined) headers['quill-event-id'] = id;
    return headers;
  },
  read(header) {
    const value = header('quill-signature');
    if (value === undefined) return { status: 'missing', reason: 'no Quill-Signature header' };
    const parts = Object.fromEntries(value.split(',').map((part) => part.split('=', 2)));
    const seconds = /^\\d{1,15}$/.test(parts.t ?? '') ? Number(parts.t) : undefined;
    if (seconds === undefined) return { status: 'invalid', reason: 'Quill-Signature has no t= timestamp' };
    if (parts.s === undefined) return { status: 'invalid', reason: 'Quill-Signature has no s= signature' };
    const candidate = Buffer.from(value.slice(value.indexOf(',s=') + 3), 'base64').toString('latin1');
    return {
      algorithm: 'sha512',
      prefix: parts.t + ':',
      candidates: [candidate],
      hex: false,
      at: 0,
      what: 'Quill-Signature',
      seconds,
      when: 'the Quill-Signature timestamp',
    };
  },
};

/** Quill-Quota-Limit and -Left on every answer; its 429 says when to come back. */
const quota = {
  headers: (take) => ({ 'quill-quota-limit': String(take.limit), 'quill-quota-left': String(take.remaining) }),
  refused: (take) => ({ error: 'quota_exhausted', retry_in_seconds: Math.ceil(take.retryMs / 1000) }),
};

export const provider = {
  name: 'quill',
  title: 'Quill',
  event: 'note.created',
  fixtures: { 'note.created': [{ method: 'POST', path: '/v1/notes', body: { text: 'triggered' } }] },
  signatureSchemes: [scheme],
  rateLimitStyles: { 'quill-quota': quota },
  flows: {
    events: {
      eventsTemplate: '/v1/events',
      endpointsTemplate: '/v1/hooks',
      scheme: 'quill',
      types: (change) => (change.kind === 'created' && change.template === '/v1/notes' ? ['note.created'] : []),
      event: (type, object, tools) => ({ id: tools.newId('evt_'), type, data: object }),
      subscribes: () => true,
      headers: (type) => ({ 'quill-event-type': type }),
    },
  },
};
`;

/** The folder written, and a catalog that loads the provider from it and from nowhere else. */
export interface FolderProvider {
  folder: string;
  twins: TwinCatalog;
  remove(): Promise<void>;
}

/** Writes the throw-away provider's folder into a temp directory (at once: a daemon's options may name its catalog). */
export function writeFolderProvider(): FolderProvider {
  const root = mkdtempSync(join(tmpdir(), 'mockpoint-provider-'));
  const folder = join(root, PROVIDER);
  mkdirSync(folder);
  writeFileSync(join(folder, 'document.json'), JSON.stringify(DOCUMENT));
  writeFileSync(join(folder, 'profile.json'), JSON.stringify(PROFILE));
  writeFileSync(join(folder, 'provider.mjs'), CODE);
  return { folder, twins: folderCatalog(root), remove: () => rm(root, { recursive: true, force: true }) };
}

/** The providers of `root`, one folder each, loaded as `@mockpoint/twins` loads its own: the folder is the provider. */
function folderCatalog(root: string): TwinCatalog {
  return {
    providers: async () => [PROVIDER],
    async load(name) {
      const folder = join(root, name);
      const read = async (file: string) => JSON.parse(await readFile(join(folder, file), 'utf8'));
      const [document, profile, code] = await Promise.all([
        read('document.json'),
        read('profile.json'),
        import(pathToFileURL(join(folder, 'provider.mjs')).href),
      ]);
      return { document, profile, provider: code.provider };
    },
  };
}
