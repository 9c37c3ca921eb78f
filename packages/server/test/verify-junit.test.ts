// The JUnit XML of a report parses (fast-xml-parser, strict), with a suite per endpoint, a case per route and a
// failure per failing case (its findings joined), whatever characters the routes and bodies hold.
import type { VerifyReport } from '@mockpoint/core';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { junitXml, xmlEscape } from '../src/commands/verify/verify-junit.js';

const HOSTILE = `<a href="x">&amp;</a> ' ]]> \u0000\u0001\u001f\ud800 \ufffe ok`;

const REPORT: VerifyReport = {
  ok: false,
  document: { title: 'Pets & <Co>', version: '1', openapi: '3.0.3' },
  checked: { endpoints: 2, routes: 3 },
  findings: [
    {
      code: 'SCHEMA_MISMATCH',
      endpoint: 'pets',
      route: { id: 'one', index: 0 },
      operation: 'GET /pets/:id',
      path: 'body/name',
      expected: 'Instance type "number" is invalid. Expected "string".',
      found: JSON.stringify(HOSTILE),
      message: `GET /pets/:id (route one): SCHEMA_MISMATCH at body/name: ${HOSTILE}`,
    },
    {
      code: 'MISSING_HEADER',
      endpoint: 'pets',
      route: { id: 'one', index: 0 },
      operation: 'GET /pets/:id',
      path: 'headers/x-total',
      expected: 'the header',
      found: 'none',
      message: 'GET /pets/:id (route one): MISSING_HEADER at headers/x-total: expected the header, found none',
    },
  ],
  moreFindings: 4,
  notes: [{ endpoint: 'pets', route: { id: 'two', index: 1 }, note: `templated ${HOSTILE}` }],
  moreNotes: 0,
  endpoints: [
    {
      name: 'pets',
      routes: [
        { id: 'one', index: 0, operation: 'GET /pets/:id' },
        { id: 'two', index: 1, operation: 'GET /pets' },
      ],
    },
    { name: 'users', routes: [{ id: 'u', index: 0, operation: 'GET /users' }] },
  ],
};

describe('junitXml', () => {
  it('parses, with a suite per endpoint, a case per route, one failure per failing case and the cap as a failure', () => {
    const xml = junitXml(REPORT);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase', 'failure'].includes(name),
    }).parse(xml);
    const suites = parsed.testsuites.testsuite;
    expect(parsed.testsuites.name).toBe('mockpoint verify: Pets & <Co> 1');
    expect(parsed.testsuites.tests).toBe('4');
    // At most one failure per test case: the route's two findings are one failure, the cap another.
    expect(parsed.testsuites.failures).toBe('2');
    expect(suites.map((s: { name: string }) => s.name)).toEqual(['pets', 'users', '(more findings)']);
    const [one, two] = suites[0].testcase;
    expect(one.name).toBe('GET /pets/:id (route one, #0)');
    expect(one.failure).toHaveLength(1);
    expect(one.failure[0].type).toBe('SCHEMA_MISMATCH MISSING_HEADER');
    expect(one.failure[0].message).toContain('2 findings: ');
    expect(one.failure[0].message).toContain('<a href="x">&amp;</a>');
    const lines = one.failure[0]['#text'].split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(REPORT.findings[1]?.message);
    expect(two['system-out']).toContain('templated');
    expect(two.failure).toBeUndefined();
    expect(suites[0]).toMatchObject({ tests: '2', failures: '1' });
    expect(suites[1]).toMatchObject({ tests: '1', failures: '0' });
    expect(suites[2].testcase[0].failure[0].message).toContain('4 more finding(s)');
  });

  it('escapes markup and writes characters XML cannot carry as \\u{…}', () => {
    expect(xmlEscape(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&apos;');
    expect(xmlEscape('a\u0000b\tc\ud800')).toBe('a\\u{0}b\tc\\u{d800}');
  });

  it('is a clean, parseable run when nothing drifted', () => {
    const xml = junitXml({ ...REPORT, ok: true, findings: [], moreFindings: 0, notes: [] });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain('<failure');
    expect(xml).toContain('failures="0"');
  });
});
