import { describe, expect, it } from 'vitest';
import { type Item, itemOf } from './item.js';
import { type ListQuery, linkHeader, parseListQuery, QueryTooCostlyError, runListQuery } from './list-query.js';
import { plural, related, singular } from './relations.js';

const users = [
  '{"id":1,"name":"Ada","age":36,"tags":["math"],"address":{"city":"London"}}',
  '{"id":2,"name":"Grace","age":85,"tags":["navy","cobol"],"address":{"city":"New York"}}',
  '{"id":3,"name":"alan","age":41,"address":{"city":"London"}}',
  '{"id":4,"name":"Edsger","age":null}',
].map(itemOf);

function query(search: string): ListQuery {
  const parsed = parseListQuery(new URLSearchParams(search));
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed;
}

const ids = (items: readonly Item[], search: string) =>
  runListQuery(items, query(search)).indexes.map((i) => (items[i] as Item).value.id);

describe('the list query (json-server 0.17)', () => {
  it('filters: equal as text, repeated means any, _ne means none, nested paths', () => {
    expect(ids(users, 'name=Ada')).toEqual([1]);
    expect(ids(users, 'id=1&id=3')).toEqual([1, 3]);
    expect(ids(users, 'id_ne=1&id_ne=3')).toEqual([2, 4]);
    expect(ids(users, 'address.city=London')).toEqual([1, 3]);
    expect(ids(users, 'tags.0=navy')).toEqual([2]);
  });

  it('a filter on a field no item has is ignored; one with an operator is not', () => {
    expect(ids(users, 'nothing=1')).toEqual([1, 2, 3, 4]);
    expect(ids(users, 'nothing_ne=1')).toEqual([]);
  });

  it('_gte/_lte compare as JavaScript does; a null or missing value never matches', () => {
    expect(ids(users, 'age_gte=41')).toEqual([2, 3]);
    expect(ids(users, 'age_lte=41&age_gte=36')).toEqual([1, 3]);
    expect(ids(users, 'name_gte=a')).toEqual([3]);
  });

  it('_like is a case-insensitive pattern, run by RE2; a bad or backtracking-only pattern is a problem', () => {
    expect(ids(users, 'name_like=^a')).toEqual([1, 3]);
    // The pattern that makes a backtracking engine take ~2^n steps on n letters: RE2 answers at once.
    const long = [...users, itemOf(`{"id":5,"name":"${'a'.repeat(40)}!"}`)];
    expect(ids(long, 'name_like=%5E(a%2B)%2B%24')).toEqual([]);
    expect(parseListQuery(new URLSearchParams('name_like=(?=x)'))).toMatchObject({ problem: /name_like/ });
    expect(parseListQuery(new URLSearchParams('name_like=['))).toMatchObject({ problem: /name_like/ });
    const many = Array.from({ length: 33 }, () => 'a_like=x').join('&');
    expect(parseListQuery(new URLSearchParams(many))).toMatchObject({ problem: /at most 32/ });
  });

  it('bounds what one request may ask: filters, sort fields, relations, and the RE2 work of its _like patterns', () => {
    const many = (key: (i: number) => string, n: number) =>
      Array.from({ length: n }, (_, i) => `${key(i)}=1`).join('&');
    expect(parseListQuery(new URLSearchParams(many((i) => `f${i}`, 65)))).toMatchObject({ problem: /64 filter/ });
    expect(parseListQuery(new URLSearchParams(`_sort=${Array(17).fill('a').join(',')}`))).toMatchObject({
      problem: /16 fields/,
    });
    expect(parseListQuery(new URLSearchParams(many((i) => `_embed=c${i}&x`, 17)))).toMatchObject({
      problem: /16 collections/,
    });
    // A pattern of a few hundred characters whose RE2 program is large, over long texts: refused, not run.
    const long = Array.from({ length: 200 }, (_, i) => itemOf(`{"id":${i},"text":"${'a'.repeat(5000)}"}`));
    const costly = query(`text_like=${encodeURIComponent('[\\s\\S]{100}'.repeat(5))}`);
    expect(() => runListQuery(long, costly)).toThrow(QueryTooCostlyError);
    expect(runListQuery(long, query('text_like=^a')).indexes).toHaveLength(200);
  });

  it('q finds text anywhere, case-insensitive, in nested values too', () => {
    expect(ids(users, 'q=LONDON')).toEqual([1, 3]);
    expect(ids(users, 'q=cob')).toEqual([2]);
    expect(ids(users, 'q=')).toEqual([1, 2, 3, 4]);
  });

  it('_sort/_order over several fields; missing and null values last, then stable', () => {
    expect(ids(users, '_sort=age')).toEqual([1, 3, 2, 4]);
    expect(ids(users, '_sort=age&_order=desc')).toEqual([4, 2, 3, 1]);
    expect(ids(users, '_sort=address.city,id&_order=asc,desc')).toEqual([3, 1, 2, 4]);
  });

  it('_page/_limit with the total and the pages; _start/_end; _start/_limit', () => {
    expect(runListQuery(users, query('_page=2&_limit=1'))).toEqual({
      indexes: [1],
      total: 4,
      pages: { prev: 1, next: 3, current: 2, first: 1, last: 4 },
    });
    expect(runListQuery(users, query('_page=1'))).toEqual({ indexes: [0, 1, 2, 3], total: 4, pages: {} });
    expect(ids(users, '_start=1&_end=3')).toEqual([2, 3]);
    expect(ids(users, '_start=2&_limit=5')).toEqual([3, 4]);
    expect(runListQuery(users, query('_start=2')).total).toBeUndefined();
    expect(parseListQuery(new URLSearchParams('_limit=ten'))).toEqual({
      problem: '_limit must be a whole number (got "ten")',
    });
  });

  it('Link names each page in the request URL, replacing its first page=<current>', () => {
    expect(linkHeader('http://h/users?_page=2&_limit=1', { prev: 1, next: 3, current: 2, first: 1, last: 4 })).toBe(
      '<http://h/users?_page=1&_limit=1>; rel="first", <http://h/users?_page=1&_limit=1>; rel="prev", ' +
        '<http://h/users?_page=3&_limit=1>; rel="next", <http://h/users?_page=4&_limit=1>; rel="last"',
    );
  });
});

describe('relations', () => {
  const posts = ['{"id":1,"title":"a","userId":2}', '{"id":2,"title":"b","userId":9}'].map(itemOf);
  const comments = ['{"id":1,"postId":1}', '{"id":2,"postId":"1"}', '{"id":3,"postId":1}'].map(itemOf);
  const find = (name: string) =>
    ({
      posts: { items: posts, idField: 'id' },
      comments: { items: comments, idField: 'id' },
      users: { items: users, idField: 'id' },
    })[name];

  it('_embed adds the items whose <singular>Id is the id (strictly equal), exact; _expand adds the one it names', () => {
    const context = { collection: 'posts', idField: 'id', find };
    expect(related(posts[0] as Item, ['comments'], ['user'], context)).toBe(
      `{"id":1,"title":"a","userId":2,"comments":[{"id":1,"postId":1},{"id":3,"postId":1}],"user":${users[1]?.text}}`,
    );
    expect(related(posts[1] as Item, ['missing'], ['user'], context)).toBe(
      '{"id":2,"title":"b","userId":9,"missing":[]}',
    );
  });

  it('inflects regular English names', () => {
    expect([plural('post'), plural('category'), plural('box'), plural('users'), plural('person')]).toEqual([
      'posts',
      'categories',
      'boxes',
      'users',
      'people',
    ]);
    expect([
      singular('posts'),
      singular('categories'),
      singular('boxes'),
      singular('people'),
      singular('news'),
    ]).toEqual(['post', 'category', 'box', 'person', 'new']);
  });
});
