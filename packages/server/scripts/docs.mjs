// Writes the generated parts of the reference pages from the tables they document:
//   docs/settings.md  the settings table, from core's settings table (packages/core/src/registry/settings.ts)
//   packages/core/schema/mockpoint.schema.json  the JSON Schema of mock files, from the API's schemas
//     (core's files/mock-file-schema.test.ts fails when it is not current)
//   docs/errors.md    the error table, from core's error registry (packages/core/src/registry/error-codes.ts)
// Each generated part sits between two marker comments; the prose around it is written by hand.
// test/docs.test.ts fails when a committed part differs from what this generates.
//
// Usage: pnpm docs   (builds, then: node packages/server/scripts/docs.mjs)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultText, SETTING_LIST } from '@mockpoint/core/defaults';
import { mockFileJsonSchemaText } from '@mockpoint/core/files';
import { ERROR_LIST } from '@mockpoint/core/internal';

/** The repository's docs folder. */
export const DOCS_DIR = fileURLToPath(new URL('../../../docs/', import.meta.url));

/** How each type of setting reads in the table. */
const TYPE_TEXT = {
  port: 'port (0 = any free one)',
  integer: 'whole number',
  string: 'text',
  secret: 'secret text',
  boolean: '`1`/`true` or `0`/`false`',
  dsn: 'Sentry DSN',
  hosts: 'comma list of host names',
  origins: 'comma list of origins',
  hostMap: 'comma list of host=name',
  serveMap: 'comma list of name=port',
  redis: '`redis://`, `rediss://` or a socket path',
};

/** A table cell: no line breaks, `|` escaped. */
function cell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The settings table of docs/settings.md. */
export function settingsTable() {
  const rows = SETTING_LIST.map((spec) => {
    const flag = spec.flag ? `\`${spec.flag}${spec.arg ? ` ${spec.arg}` : ''}\`` : '';
    const fallback = defaultText(spec);
    const bounds = spec.min !== undefined || spec.max !== undefined ? `${spec.min ?? 0}–${spec.max}` : '';
    return [
      `\`${spec.name}\``,
      `\`${spec.env}\``,
      flag,
      TYPE_TEXT[spec.type],
      fallback === undefined ? 'off' : fallback,
      bounds,
      spec.help + (spec.limit ? ' (in `/api/health` `limits`)' : ''),
    ].map(cell);
  });
  return [
    '| setting | environment variable | flag | type | default | bounds | what it sets |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/** Who raises each kind of error, as the table says it. */
const SOURCE_TEXT = { server: 'server', client: 'client', cli: '`mockpoint` CLI', vitest: '`@mockpoint/vitest`' };

/** The error table of docs/errors.md: one row per code of the registry. */
export function errorsTable() {
  const rows = ERROR_LIST.map((spec) =>
    [`\`${spec.code}\``, spec.status ?? '', SOURCE_TEXT[spec.from ?? 'server'], spec.when, spec.fix].map(cell),
  );
  return [
    '| code | status | raised by | when | what to do |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/**
 * Every generated part: the page in docs/, the first words of its opening and
 * closing marker comments, and its text.
 */
export function generatedParts() {
  return [
    { page: 'settings.md', start: '<!-- settings table:', end: '<!-- end of settings table', text: settingsTable() },
    { page: 'errors.md', start: '<!-- errors table:', end: '<!-- end of errors table', text: errorsTable() },
  ];
}

/** The generated part of `page` as committed (between its markers), or `undefined` without markers. */
export function committedPart(part) {
  const page = readFileSync(`${DOCS_DIR}${part.page}`, 'utf8');
  const from = page.indexOf(part.start);
  const to = page.indexOf(part.end);
  if (from === -1 || to < from) return undefined;
  const opening = page.indexOf('\n', from) + 1;
  return page.slice(opening, to).replace(/\n$/, '');
}

/** `page` with its generated part replaced by `text`. */
function withPart(part) {
  const page = readFileSync(`${DOCS_DIR}${part.page}`, 'utf8');
  const from = page.indexOf(part.start);
  const to = page.indexOf(part.end);
  if (from === -1 || to < from) throw new Error(`docs/${part.page} has no "${part.start}" … "${part.end}" markers`);
  const opening = page.indexOf('\n', from) + 1;
  return `${page.slice(0, opening)}${part.text}\n${page.slice(to)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const part of generatedParts()) {
    writeFileSync(`${DOCS_DIR}${part.page}`, withPart(part));
    console.log(`docs: wrote the generated part of docs/${part.page}`);
  }
  const schema = fileURLToPath(new URL('../../core/schema/mockpoint.schema.json', import.meta.url));
  writeFileSync(schema, mockFileJsonSchemaText());
  console.log('docs: wrote packages/core/schema/mockpoint.schema.json');
}
