// A mock file's `hosts:` (docs/https.md): read as patterns (lower case, sorted,
// once each), written with PUT …/hosts, and refused at its path when a host is
// not a pattern or another endpoint of the file has it.
import { describe, expect, it } from 'vitest';
import { MockpointError } from '../wire/errors.js';
import { parseMockFile } from './parse-mock-file.js';
import { writeBodies } from './write-bodies.js';

function failure(text: string): MockpointError {
  try {
    parseMockFile(text, { file: 'mockpoint.yaml' });
  } catch (error) {
    if (error instanceof MockpointError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('hosts in a mock file', () => {
  it('reads them as patterns and writes them in one PUT body', () => {
    const file = parseMockFile(
      'version: 1\nendpoints:\n  - name: github\n    hosts: [API.github.com., "*.githubusercontent.com", api.github.com]\n',
      { file: 'mockpoint.yaml' },
    );
    const [github] = file.endpoints;
    expect(github?.hosts).toEqual(['*.githubusercontent.com', 'api.github.com']);
    expect(writeBodies(github as NonNullable<typeof github>).hosts).toBe(
      '{"hosts":["*.githubusercontent.com","api.github.com"]}',
    );
  });

  it.each([
    ['an IP address', '[127.0.0.1]', 'INVALID_HOSTS', 'endpoints[0].hosts[0]'],
    ['a port', '[a.test, "b.test:443"]', 'INVALID_HOSTS', 'endpoints[0].hosts[1]'],
    ['not a list', 'a.test', 'INVALID_HOSTS', 'endpoints[0].hosts'],
  ])('refuses %s at its path', (_label, hosts, reason, path) => {
    const error = failure(`version: 1\nendpoints:\n  - name: a\n    hosts: ${hosts}\n`);
    expect(error.code).toBe('MOCK_FILE_INVALID');
    expect(error.details).toMatchObject({ reason, path });
  });

  it('refuses a host two endpoints claim', () => {
    const error = failure(
      'version: 1\nendpoints:\n  - name: a\n    hosts: [x.test]\n  - name: b\n    hosts: [y.test, X.test]\n',
    );
    expect(error.details).toMatchObject({ reason: 'HOST_TAKEN', path: 'endpoints[1].hosts[1]' });
    expect(error.message).toContain('"x.test" is already mapped by endpoints[0]');
  });
});
