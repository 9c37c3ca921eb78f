// The baseline of bench/twins.mjs: a bare node:http server doing a twin's work for the requests the
// bench sends, in memory, on the very objects the mockpoint twin made (BENCH_TWIN), so that each
// answer's body is the same bytes (the bench checks it):
//   Stripe, at /endpoint/shop: the secret key checked; GET /v1/customers/{id} finds one;
//   GET /v1/customers?limit=N lists the newest N (Stripe's list object); POST /v1/customers reads
//   the form, refuses a parameter the create does not take, makes a customer from the first one's
//   fields with a new id and keeps it; DELETE /v1/customers/{id} removes it; each write keeps its
//   event (`customer.created`, `customer.deleted`), the newest 10,000. Each answer carries a new
//   Request-Id and the Stripe-Version.
//   GitHub, at /endpoint/code: the token checked, the token's requests counted for the rate-limit
//   headers; GET /repos/{owner}/{repo}/issues/{number} finds the issue, answered with its SHA-256
//   ETag and a new X-GitHub-Request-Id.
// Prints its URL when listening.
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

const twin = JSON.parse(process.env.BENCH_TWIN ?? '{}');
/** Customers by id, in the order made (a list answers the newest first). */
const customers = new Map(twin.customers.map((customer) => [customer.id, customer]));
const template = twin.customers[0];
const issues = new Map([[twin.issuePath, twin.issue]]);
/** What `POST /v1/customers` takes (Stripe's create parameters the bench's forms use, and the rest by name). */
const CREATE = new Set([
  'address',
  'balance',
  'description',
  'email',
  'expand',
  'invoice_prefix',
  'metadata',
  'name',
  'next_invoice_sequence',
  'payment_method',
  'phone',
  'preferred_locales',
  'shipping',
  'source',
  'tax',
  'tax_exempt',
  'tax_id_data',
  'test_clock',
]);
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const base = {
  'content-type': 'application/json; charset=utf-8',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': '*',
};
let used = 0;
/** The newest 10,000 events, oldest first, as the twin keeps them. */
const events = [];

function keep(type, object) {
  events.push({ id: id('evt_', 24), object: 'event', created: Math.floor(Date.now() / 1000), data: { object }, type });
  if (events.length > 10_000) events.shift();
}

function id(prefix, length) {
  const bytes = randomBytes(length);
  let text = prefix;
  for (const byte of bytes) text += ID_CHARS[byte % ID_CHARS.length];
  return text;
}

function send(res, status, text, extra) {
  res.writeHead(status, { ...base, ...extra, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function stripe(req, res, path, query, body) {
  const headers = { 'request-id': id('req_', 14), 'stripe-version': twin.stripeVersion };
  if (!req.headers.authorization?.startsWith('Bearer sk_')) return send(res, 401, '{"error":{}}', headers);
  if (path === '/v1/customers' && req.method === 'GET') {
    const limit = Number(query.get('limit') ?? 10);
    const all = [...customers.values()];
    const data = all.slice(-limit).reverse();
    const list = { data, has_more: all.length > limit, object: 'list', url: '/v1/customers' };
    return send(res, 200, JSON.stringify(list), headers);
  }
  if (path === '/v1/customers' && req.method === 'POST') {
    const form = new URLSearchParams(body);
    const made = { ...template, id: id('cus_', 24), created: Math.floor(Date.now() / 1000), metadata: {} };
    for (const [key, value] of form) {
      const [name, inner] = key.split(/\[|\]/, 2);
      if (!CREATE.has(name)) return send(res, 400, `{"error":{"param":${JSON.stringify(key)}}}`, headers);
      if (inner === undefined) made[name] = value;
      else made[name] = { ...made[name], [inner]: value };
    }
    customers.set(made.id, made);
    keep('customer.created', made);
    return send(res, 200, JSON.stringify(made), headers);
  }
  const one = /^\/v1\/customers\/([^/]+)$/.exec(path);
  const customer = one ? customers.get(one[1]) : undefined;
  if (customer === undefined) return send(res, 404, '{"error":{"type":"invalid_request_error"}}', headers);
  if (req.method === 'DELETE') {
    customers.delete(customer.id);
    keep('customer.deleted', customer);
    return send(res, 200, JSON.stringify({ id: customer.id, object: 'customer', deleted: true }), headers);
  }
  send(res, 200, JSON.stringify(customer), headers);
}

function github(req, res, path) {
  used++;
  const headers = {
    'x-github-request-id': `${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}:${randomBytes(3).toString('hex')}`,
    'x-ratelimit-limit': '1000000',
    'x-ratelimit-remaining': String(1_000_000 - used),
    'x-ratelimit-used': String(used),
    'x-ratelimit-resource': 'core',
  };
  if (!req.headers.authorization?.startsWith('token '))
    return send(res, 401, '{"message":"Requires authentication"}', headers);
  const issue = issues.get(path);
  if (issue === undefined) return send(res, 404, '{"message":"Not Found"}', headers);
  const text = JSON.stringify(issue);
  const etag = `"${createHash('sha256').update(text).digest('hex')}"`;
  if (req.headers['if-none-match'] === etag) return send(res, 304, '', headers);
  send(res, 200, text, { ...headers, etag });
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const url = new URL(req.url, 'http://bare');
    const body = Buffer.concat(chunks).toString();
    if (url.pathname.startsWith('/endpoint/shop/')) {
      return stripe(req, res, url.pathname.slice('/endpoint/shop'.length), url.searchParams, body);
    }
    if (url.pathname.startsWith('/endpoint/code/'))
      return github(req, res, url.pathname.slice('/endpoint/code'.length));
    send(res, 404, '{}', {});
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
