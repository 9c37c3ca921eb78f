import { describe, expect, it } from 'vitest';
import { chooseNamespace, type NamespaceChoice } from './namespace-choice.js';

interface Ask {
  target: string;
  byPath: boolean;
  method: string;
  fromHeaders: () => string | undefined;
}

/** The choice for a request described by `over` (a POST to /endpoint/a by path, no header, by default). */
function ask(over: Partial<Ask>): NamespaceChoice | undefined {
  const { target, byPath, method, fromHeaders }: Ask = {
    target: '/endpoint/a',
    byPath: true,
    method: 'POST',
    fromHeaders: () => undefined,
    ...over,
  };
  return chooseNamespace(target, byPath, method, fromHeaders, (read) => read());
}

describe('the one choice of a request’s namespace', () => {
  it('takes the /ns/{ns} prefix first, with the target below it, and reads no header then', () => {
    let read = 0;
    const chosen = ask({
      target: '/ns/t1/endpoint/a?x=1',
      fromHeaders: () => {
        read++;
        return 'other';
      },
    });
    expect(chosen).toEqual({
      kind: 'namespace',
      name: 't1',
      rest: '/endpoint/a?x=1',
      page: undefined,
      refused: undefined,
    });
    expect(read).toBe(0);
  });

  it('sends a GET of /ns/{ns} alone to its page, and no other method', () => {
    expect(ask({ target: '/ns/t1?q=1', method: 'GET' })?.page).toBe('/ns/t1/?q=1');
    expect(ask({ target: '/ns/t1', method: 'POST' })?.page).toBeUndefined();
    expect(ask({ target: '/ns/t1/', method: 'GET' })?.page).toBeUndefined();
  });

  it('reads the headers where the path may not name one (a mapped host, a --serve port)', () => {
    const chosen = ask({ target: '/ns/t1/x', byPath: false, fromHeaders: () => 'h1' });
    expect(chosen).toEqual({ kind: 'namespace', name: 'h1', rest: undefined, page: undefined, refused: undefined });
    expect(ask({ target: '/ns/t1/x', byPath: false })).toBeUndefined();
    expect(ask({ fromHeaders: () => 'h2' })?.name).toBe('h2');
  });

  it('names none where neither path nor headers do', () => {
    expect(ask({})).toBeUndefined();
    expect(ask({ target: '/nsx/t1' })).toBeUndefined();
  });

  it('refuses a name that breaks the name rule with 404 NAMESPACE_NOT_FOUND, quoting it bounded', () => {
    for (const name of ['', 'a b', 'x'.repeat(65), 'é']) {
      const chosen = ask({ byPath: false, fromHeaders: () => name });
      expect(chosen?.refused?.code).toBe('NAMESPACE_NOT_FOUND');
      expect(chosen?.refused?.status).toBe(404);
      expect(chosen?.refused?.message.length).toBeLessThan(200);
    }
    expect(ask({ target: '/ns/%20/a' })?.refused?.code).toBe('NAMESPACE_NOT_FOUND');
  });
});
