// The error registry is the one list of codes: every code raised anywhere in the
// packages' sources is in it, every code the server answers with is named by the
// OpenAPI operations, and every entry says when it happens and what to do.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VERIFY_FINDING_CODES } from '../api/verify-json.js';
import { createApp } from '../http/create-app.js';
import { ERROR_LIST, ERROR_STATUS, ERRORS, type ErrorCode } from './error-codes.js';

type ErrorResponse = {
  description: string;
  content?: Record<
    string,
    { schema: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } } } | undefined
  >;
};

const PACKAGES = fileURLToPath(new URL('../../../', import.meta.url));

/** Every non-test TypeScript source file of every package. */
function sources(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.tsbuild', 'test', 'fixtures'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, found);
    else if (/\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name)) found.push(path);
  }
  return found;
}

/** Where a code is raised or checked: an error constructed, refused, answered, or compared. */
const RAISED = [
  /\bnew \w*Error\(\s*'([A-Z][A-Z0-9_]+)'/g,
  /\bsuper\(\s*'([A-Z][A-Z0-9_]+)'/g,
  /\b(?:refuse|fail|errorAnswer)\(\s*(?:\d+,\s*)?'([A-Z][A-Z0-9_]+)'/g,
  /\berror: \{ code: '([A-Z][A-Z0-9_]+)'/g,
  /\bcode === '([A-Z][A-Z0-9_]+)'/g,
];
/** Codes of Node, LevelDB and other libraries, which mockpoint compares against but never raises. */
const FOREIGN = /^(E[A-Z]+|ERR_[A-Z_]+|HPE_[A-Z_]+|LEVEL_[A-Z_]+)$/;
/** How a delivery attempt ended (api/delivery-json.ts `AttemptErrorCode`): reported in the delivery, not raised. */
const ATTEMPT_OUTCOMES = new Set([
  'TIMEOUT',
  'CONNECTION_REFUSED',
  'CONNECTION_FAILED',
  'REDIRECT_NOT_FOLLOWED',
  'INTERRUPTED',
]);
/** Why a mock file is invalid (`error.details.reason` of MOCK_FILE_INVALID), not a code of its own. */
const MOCK_FILE_REASONS = new Set(['FILE_OUTSIDE', 'FILE_UNREADABLE', 'INVALID_DATA', 'INVALID_FILE_REFERENCE']);

/** What `mockpoint verify` finds (api/verify-json.ts): a finding of a report, not an error. */
const FINDINGS = new Set<string>(VERIFY_FINDING_CODES);

describe('the error registry', () => {
  it('holds every code raised in the sources of every package', () => {
    const unknown: string[] = [];
    const seen = new Set<string>();
    for (const file of sources(join(PACKAGES, '.'))) {
      if (!file.includes(`${join('src', '')}`)) continue;
      const text = readFileSync(file, 'utf8');
      for (const pattern of RAISED) {
        for (const [, code] of text.matchAll(pattern)) {
          if (FOREIGN.test(code as string)) continue;
          if (file.endsWith('delivery-attempt.ts') && ATTEMPT_OUTCOMES.has(code as string)) continue;
          if (file.includes(join('src', 'files')) && MOCK_FILE_REASONS.has(code as string)) continue;
          if (file.includes(join('src', 'verify')) && FINDINGS.has(code as string)) continue;
          seen.add(code as string);
          if (!((code as string) in ERRORS)) unknown.push(`${code} (${file.slice(PACKAGES.length)})`);
        }
      }
    }
    expect(unknown).toEqual([]);
    // The scan finds the codes (it is not vacuous): most of the registry is raised literally.
    expect(seen.size).toBeGreaterThan(ERROR_LIST.length / 2);
  });

  it('gives every code when it happens and what to do; every server code its HTTP status', () => {
    for (const spec of ERROR_LIST) {
      expect(spec.when.length, spec.code).toBeGreaterThan(5);
      expect(spec.fix.length, spec.code).toBeGreaterThan(5);
      if ((spec.from ?? 'server') === 'server') expect(spec.status, spec.code).toBeGreaterThanOrEqual(400);
    }
  });

  it('names every code the server answers with in some operation of the OpenAPI document', async () => {
    const doc = (await (await createApp().request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, ErrorResponse> }>>;
    };
    const named = new Set<string>();
    for (const operations of Object.values(doc.paths)) {
      for (const operation of Object.values(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          // Each code as the registry describes it ("CODE: when."), and in the schema's enum of `error.code`.
          const described = [...response.description.matchAll(/\b([A-Z][A-Z0-9_]+): /g)].map(([, code]) => code);
          const listed = response.content?.['application/json']?.schema.properties?.error?.properties?.code?.enum ?? [];
          if (listed.length > 0) expect(listed, `${status}`).toEqual(described);
          for (const code of described as string[]) {
            expect(ERRORS, code).toHaveProperty(code);
            named.add(code);
            // Named under the status the registry gives it.
            expect(String(ERROR_STATUS[code as ErrorCode]), `${code} under ${status}`).toBe(status);
          }
        }
      }
    }
    // Answered outside any documented operation: a hang-up nobody sees, a bug, a path or method that is none,
    // a chunked body offered with an upgrade (any path), a CONNECT for TLS without --https (a proxy's, no path).
    const outside = new Set([
      'HTTPS_NOT_ENABLED',
      'REQUEST_ABORTED',
      'INTERNAL',
      'ROUTE_NOT_FOUND',
      'METHOD_NOT_ALLOWED',
      'UPGRADE_BODY_UNSUPPORTED',
      // Never an answer: a twin's delivery refused after a restart, counted in GET …/twin's `webhooks`.
      'TWIN_EVENT_GONE',
      // A request head the HTTP parser refuses (adapter/node/client-error.ts): before any route.
      'URI_TOO_LONG',
      'HEADERS_TOO_LARGE',
    ]);
    const server = ERROR_LIST.filter((spec) => (spec.from ?? 'server') === 'server').map((spec) => spec.code);
    expect(server.filter((code) => !named.has(code) && !outside.has(code))).toEqual([]);
  });
});
