// sniCertificates() with a real CA and host table: names under one `*.` pattern
// share one certificate whose SAN covers them, deeper names are bounded per
// pattern, new signatures are capped per second, unmapped names get none.
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HostTable } from '../../../hosts/host-table.js';
import { createCa, type LocalCa } from './local-ca.js';
import { MAX_DEEPER_PER_PATTERN, MAX_SIGNED_PER_SECOND, sniCertificates } from './sni-certificates.js';

/** The CA, counting what it signs. */
function countingCa(): { ca: Pick<LocalCa, 'issue'>; signed: string[][] } {
  const real = createCa();
  const signed: string[][] = [];
  return {
    signed,
    ca: {
      issue(names) {
        signed.push([...names]);
        return real.issue(names);
      },
    },
  };
}

const table = new HostTable([
  { host: 'api.github.com', name: 'github' },
  { host: '*.stripe.com', name: 'stripe' },
]);
const patternOf = (name: string) => table.match(name)?.host;

describe('sniCertificates', () => {
  it('500 names one label under *.stripe.com sign one certificate, and it covers each', () => {
    const { ca, signed } = countingCa();
    const certificateFor = sniCertificates(ca, { patternOf, now: () => 0 });
    const pairs = new Set<unknown>();
    for (let i = 0; i < 500; i++) pairs.add(certificateFor(`x${i}.stripe.com`));
    expect(signed).toEqual([['*.stripe.com']]);
    expect(pairs.size).toBe(1);
    const cert = new X509Certificate((certificateFor('x7.stripe.com') as { cert: string }).cert);
    expect(cert.subjectAltName).toBe('DNS:*.stripe.com');
    expect(cert.checkHost('x7.stripe.com')).toBe('*.stripe.com'); // the SAN that covers it
    // An exact mapping gets its own name; unmapped and malformed names get none.
    const github = new X509Certificate((certificateFor('API.github.com') as { cert: string }).cert);
    expect(github.checkHost('api.github.com')).toBe('api.github.com');
    expect([certificateFor('stripe.com'), certificateFor('example.com'), certificateFor('a b.stripe.com')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(signed).toHaveLength(2);
  });

  it('deeper names sign one certificate per parent, at most MAX_DEEPER_PER_PATTERN per pattern', () => {
    const { ca, signed } = countingCa();
    let clock = 0;
    const certificateFor = sniCertificates(ca, { patternOf, now: () => clock });
    for (let i = 0; i < 300; i++) {
      clock += 1000; // past the per-second cap: only the per-pattern bound applies here
      certificateFor(`a.y${i}.stripe.com`);
      certificateFor(`b.y${i}.stripe.com`);
    }
    expect(signed).toHaveLength(MAX_DEEPER_PER_PATTERN);
    const first = new X509Certificate((certificateFor('c.y0.stripe.com') as { cert: string }).cert);
    expect(first.checkHost('c.y0.stripe.com')).toBe('*.y0.stripe.com');
    // Beyond the bound: the default certificate; the pattern's own still works.
    expect(certificateFor('a.y299.stripe.com')).toBeUndefined();
    expect(certificateFor('x.stripe.com')).toBeDefined();
  });

  it('signs at most MAX_SIGNED_PER_SECOND new certificates a second; the rest get the default until the next', () => {
    const { ca, signed } = countingCa();
    let clock = 5000;
    const table = new HostTable(Array.from({ length: 100 }, (_, i) => ({ host: `h${i}.example.com`, name: 'e' })));
    const certificateFor = sniCertificates(ca, { patternOf: (name) => table.match(name)?.host, now: () => clock });
    const given = Array.from({ length: 100 }, (_, i) => certificateFor(`h${i}.example.com`));
    expect(given.filter(Boolean)).toHaveLength(MAX_SIGNED_PER_SECOND);
    expect(signed).toHaveLength(MAX_SIGNED_PER_SECOND);
    clock += 1000;
    expect(certificateFor('h99.example.com')).toBeDefined();
  });
});
