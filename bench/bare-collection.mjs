// The baseline of bench/collections.mjs: a bare node:http server doing the same
// work as a resource route, in memory, on parsed objects (no exact text, no
// journal): GET /items?views_gte=&_sort=&_order=&_page=&_limit= filters, sorts
// and pages, with X-Total-Count and json-server's Link, and keeps the answer until the next write (as
// mockpoint keeps a list's result per version of the collection); GET /items/{id}
// finds one; POST /items parses the body, gives it the next id and keeps it;
// DELETE /items/{id} removes it.
// Prints its URL when listening.
// BENCH_ITEMS: the items, as JSON.
import { createServer } from 'node:http';

const items = JSON.parse(process.env.BENCH_ITEMS ?? '[]');
let nextId = items.reduce((max, item) => Math.max(max, item.id), 0) + 1;
const base = { 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': '*' };

function send(res, status, text, extra = {}) {
  res.writeHead(status, { ...base, ...extra, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Answered lists by query string, until the next write. */
const lists = new Map();

/** json-server's Link: the request's URL with its page replaced, per relation (made per request, as mockpoint does). */
function link(req, page, last) {
  const url = `http://${req.headers.host}${req.url}`;
  const at = (to) => url.replace(`_page=${page}`, `_page=${to}`);
  const rels = [];
  if (page > 1) rels.push(`<${at(1)}>; rel="first"`, `<${at(page - 1)}>; rel="prev"`);
  if (page < last) rels.push(`<${at(page + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`);
  return rels.join(', ');
}

function listHeaders(req, known) {
  return {
    'x-total-count': known.total,
    'access-control-expose-headers': 'X-Total-Count, Link',
    link: link(req, known.page, known.last),
  };
}

function list(req, res, query) {
  const known = lists.get(query.toString());
  if (known !== undefined) return send(res, 200, known.text, listHeaders(req, known));
  const min = Number(query.get('views_gte') ?? Number.NEGATIVE_INFINITY);
  let found = items.filter((item) => item.views >= min);
  const field = query.get('_sort');
  if (field) {
    const sign = query.get('_order') === 'desc' ? -1 : 1;
    found = [...found].sort((a, b) => (a[field] > b[field] ? sign : a[field] < b[field] ? -sign : 0));
  }
  const total = found.length;
  const limit = Number(query.get('_limit') ?? 10);
  const page = Number(query.get('_page') ?? 1);
  found = found.slice((page - 1) * limit, page * limit);
  const answer = { text: JSON.stringify(found), total: String(total), page, last: Math.ceil(total / limit) };
  lists.set(query.toString(), answer);
  send(res, 200, answer.text, listHeaders(req, answer));
}

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const parts = url.pathname.split('/').filter(Boolean);
  const id = parts[parts.indexOf('items') + 1];
  if (req.method === 'POST') {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const item = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      item.id = nextId++;
      items.push(item);
      lists.clear();
      send(res, 201, JSON.stringify(item), { location: `http://${req.headers.host}${req.url}/${item.id}` });
    });
    return;
  }
  if (req.method === 'DELETE') {
    const at = items.findIndex((candidate) => String(candidate.id) === id);
    if (at === -1) return send(res, 404, '{}');
    items.splice(at, 1);
    lists.clear();
    return send(res, 200, '{}');
  }
  if (id === undefined) return list(req, res, url.searchParams);
  const item = items.find((candidate) => String(candidate.id) === id);
  if (item === undefined) return send(res, 404, '{}');
  send(res, 200, JSON.stringify(item));
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
