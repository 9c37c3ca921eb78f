import { describe, expect, it } from 'vitest';
import { chooseNamespace, type NamespaceAsk } from './namespace-choice.js';

const ask = (over: Partial<NamespaceAsk>): NamespaceAsk => ({
  target: '/endpoint/a',
  byPath: true,
  method: 'POST',
  fromHeaders: () => undefined,
  ...over,
});

describe('the one choice of a request’s namespace', () => {
  it('takes the /ns/{ns} prefix first, with the target below it, and reads no header then', () => {
    let read = 0;
    const chosen = chooseNamespace(
      ask({
        target: '/ns/t1/endpoint/a?x=1',
        fromHeaders: () => {
          read++;
          return 'other';
        },
      }),
    );
    expect(chosen).toEqual({ name: 't1', rest: '/endpoint/a?x=1', page: undefined, refused: undefined });
    expect(read).toBe(0);
  });

  it('sends a GET of /ns/{ns} alone to its page, and no other method', () => {
    expect(chooseNamespace(ask({ target: '/ns/t1?q=1', method: 'GET' }))?.page).toBe('/ns/t1/?q=1');
    expect(chooseNamespace(ask({ target: '/ns/t1', method: 'POST' }))?.page).toBeUndefined();
    expect(chooseNamespace(ask({ target: '/ns/t1/', method: 'GET' }))?.page).toBeUndefined();
  });

  it('reads the headers where the path may not name one (a mapped host, a --serve port)', () => {
    const chosen = chooseNamespace(ask({ target: '/ns/t1/x', byPath: false, fromHeaders: () => 'h1' }));
    expect(chosen).toEqual({ name: 'h1', rest: undefined, page: undefined, refused: undefined });
    expect(chooseNamespace(ask({ target: '/ns/t1/x', byPath: false }))).toBeUndefined();
    expect(chooseNamespace(ask({ fromHeaders: () => 'h2' }))?.name).toBe('h2');
  });

  it('names none where neither path nor headers do', () => {
    expect(chooseNamespace(ask({}))).toBeUndefined();
    expect(chooseNamespace(ask({ target: '/nsx/t1' }))).toBeUndefined();
  });

  it('refuses a name that breaks the name rule with 404 NAMESPACE_NOT_FOUND, quoting it bounded', () => {
    for (const name of ['', 'a b', 'x'.repeat(65), 'é']) {
      const chosen = chooseNamespace(ask({ byPath: false, fromHeaders: () => name }));
      expect(chosen?.refused?.code).toBe('NAMESPACE_NOT_FOUND');
      expect(chosen?.refused?.status).toBe(404);
      expect(chosen?.refused?.message.length).toBeLessThan(200);
    }
    expect(chooseNamespace(ask({ target: '/ns/%20/a' }))?.refused?.code).toBe('NAMESPACE_NOT_FOUND');
  });
});
