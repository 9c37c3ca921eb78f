// HTTP checks that scripts/container-test.sh runs against the daemon inside the
// container image: the seed contract (docs/design.md#seed-contract), the settings passed through
// the environment, and records written before a restart read back after it.
// Plain Node (no dependencies), so it runs on the host against 127.0.0.1.
//
// Usage: node scripts/container-checks.mjs <command> <base url> [options]
//   contract  --max-body-bytes <n> [--token <t>]   the seed contract; with a token, writes without it are refused
//   write     --count <n> [--token <t>]             creates n endpoints named durable-0..n-1, each acknowledged
//   read-back --count <n>                           those endpoints answer with exactly what was written
//   write-until-stopped --out <file> [--token <t>]  writes with 4 clients until the daemon goes away (at most
//                                                   60 s), appending each acknowledged name to <file>
//   read-back --names <file>                        every name in <file> answers with exactly what was written
//   health    --store <kind>                        /api/health answers ok with that store
import { appendFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    token: { type: 'string' },
    count: { type: 'string' },
    store: { type: 'string' },
    'max-body-bytes': { type: 'string' },
    out: { type: 'string' },
    names: { type: 'string' },
  },
});
const [command, base] = positionals;
if (!command || !base) {
  console.error('usage: container-checks.mjs <contract|write|read-back|health> <base url> [options]');
  process.exit(2);
}

let checks = 0;
function check(condition, what, detail) {
  checks++;
  if (!condition) {
    throw new Error(
      `${what}${detail === undefined ? '' : ` (got ${typeof detail === 'string' ? detail : JSON.stringify(detail)})`}`,
    );
  }
}

const writeHeaders = values.token ? { authorization: `Bearer ${values.token}` } : {};

async function call(method, path, { body, headers = {} } = {}) {
  const response = await fetch(new URL(path, base), { method, body, headers, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

function add(body, headers = {}) {
  return call('PUT', '/api/endpoint/add', {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { ...writeHeaders, ...headers },
  });
}

function expectError(response, status, code, what) {
  check(response.status === status, `${what}: status ${status}`, response.status);
  check(
    response.json?.success === false && response.json?.error?.code === code,
    `${what}: error code ${code}`,
    response.text,
  );
  check(
    typeof response.json?.error?.message === 'string' && response.json.error.message.length > 0,
    `${what}: a message`,
  );
}

async function contract() {
  const run = `seed-${process.pid}-${Date.now().toString(36)}`;
  const record = {
    name: `${run}-paid`,
    data: { id: 42, paid: true, note: 'héllo ✓', list: [1, null, 'x'] },
    statusCode: 201,
    delay: 250,
  };

  if (values.token) {
    const refused = await call('PUT', '/api/endpoint/add', { body: JSON.stringify(record) });
    expectError(refused, 401, 'UNAUTHORIZED', 'a write without the admin token');
    const wrong = await call('PUT', '/api/endpoint/add', {
      body: JSON.stringify(record),
      headers: { authorization: 'Bearer nope' },
    });
    expectError(wrong, 401, 'UNAUTHORIZED', 'a write with a wrong admin token');
  }

  const created = await add(record);
  check(created.status === 201, 'add: 201 Created', created.status);
  check(
    JSON.stringify(created.json) === JSON.stringify({ success: true, ...record }),
    'add: echoes { success, name, data, statusCode, delay }',
    created.text,
  );

  const started = performance.now();
  const read = await call('GET', `/endpoint/${record.name}?ignored=1`);
  const elapsed = performance.now() - started;
  check(read.status === 201, 'read: the stored status code', read.status);
  check(read.text === JSON.stringify(record.data), 'read: the stored data alone, byte for byte', read.text);
  check(/^application\/json/.test(read.headers.get('content-type') ?? ''), 'read: JSON content type');
  check(elapsed >= 240, 'read: answered after the stored delay', `${Math.round(elapsed)} ms`);

  const head = await call('HEAD', `/endpoint/${record.name}`);
  check(head.status === 201 && head.text === '', 'HEAD: the status without a body', head.status);

  const plain = await add(`{"name":"${run}-plain","data":null}`, { 'content-type': 'text/plain' });
  check(plain.status === 201, 'add: JSON body accepted whatever the Content-Type', plain.text);
  check(
    plain.json?.statusCode === 200 && plain.json?.delay === 0 && plain.json?.data === null,
    'add: defaults 200 and 0, null data kept',
    plain.text,
  );
  const plainRead = await call('GET', `/endpoint/${run}-plain`);
  check(plainRead.status === 200 && plainRead.text === 'null', 'read: null data with status 200', plainRead.text);

  const taken = await add({ name: record.name, data: 1 });
  expectError(taken, 409, 'NAME_TAKEN', 'add of a taken name');
  const unchanged = await call('GET', `/endpoint/${record.name}`);
  check(
    unchanged.text === JSON.stringify(record.data) && unchanged.status === 201,
    'a taken name: nothing changes',
    unchanged.text,
  );

  // The image carries the providers' twins (@mockpoint/twins, which the npm package leaves out).
  const twin = await call('PUT', `/api/endpoints/${run}-pay/twin`, {
    body: JSON.stringify({ provider: 'stripe' }),
    headers: writeHeaders,
  });
  check(twin.status === 200, 'a Stripe twin: 200', twin.text);
  const customer = await call('POST', `/endpoint/${run}-pay/v1/customers`, {
    body: 'email=jenny%40example.com',
    headers: { authorization: 'Bearer sk_test_image', 'content-type': 'application/x-www-form-urlencoded' },
  });
  check(
    customer.status === 200 && customer.json?.object === 'customer' && customer.json?.email === 'jenny@example.com',
    'a Stripe twin: a customer made',
    customer.text,
  );
  // Its flows (the package's built dist/, a chunk per provider): a test card's payment succeeds.
  const paid = await call('POST', `/endpoint/${run}-pay/v1/payment_intents`, {
    body: 'amount=1200&currency=usd&payment_method=pm_card_visa&confirm=true',
    headers: { authorization: 'Bearer sk_test_image', 'content-type': 'application/x-www-form-urlencoded' },
  });
  check(
    paid.status === 200 && paid.json?.status === 'succeeded',
    "a Stripe twin: pm_card_visa's payment succeeded (the flows are in the image)",
    paid.text,
  );

  expectError(await add('{not json'), 400, 'INVALID_JSON', 'a body that is not JSON');
  expectError(await add({ name: 'bad name!', data: 1 }), 400, 'INVALID_NAME', 'an invalid name');
  expectError(await add({ name: `${run}-x` }), 400, 'MISSING_DATA', 'missing data');
  expectError(await add({ name: `${run}-x`, data: 1, statusCode: 99 }), 400, 'INVALID_STATUS_CODE', 'a bad statusCode');
  expectError(await add({ name: `${run}-x`, data: 1, delay: -1 }), 400, 'INVALID_DELAY', 'a bad delay');
  expectError(await add({ name: `${run}-x`, data: 1, extra: true }), 400, 'UNKNOWN_FIELD', 'an unknown field');

  // MOCKPOINT_MAX_BODY_BYTES from the container's environment: one byte over it is refused.
  const limit = Number(values['max-body-bytes']);
  check(Number.isInteger(limit) && limit > 100, '--max-body-bytes given');
  const filler = 'x'.repeat(limit);
  expectError(
    await add({ name: `${run}-big`, data: filler }),
    413,
    'BODY_TOO_LARGE',
    `a body over MOCKPOINT_MAX_BODY_BYTES=${limit}`,
  );
  const fits = JSON.stringify({ name: `${run}-fits`, data: '' });
  const justFits = await add(JSON.stringify({ name: `${run}-fits`, data: 'y'.repeat(limit - fits.length) }));
  check(justFits.status === 201, `a body of exactly MOCKPOINT_MAX_BODY_BYTES=${limit} is accepted`, justFits.status);

  expectError(await call('GET', `/endpoint/${run}-missing`), 404, 'NOT_FOUND', 'an unknown name');
}

function durableRecord(name) {
  const i = Number(name.replace(/^\D+/, ''));
  return {
    name,
    data: { name, text: `record ${i} ✓`, nested: { list: [i, i * 2] } },
    statusCode: 200 + (i % 3),
    delay: 0,
  };
}

async function write() {
  const count = Number(values.count);
  check(Number.isInteger(count) && count > 0, '--count given');
  for (let i = 0; i < count; i++) {
    const response = await add(durableRecord(`durable-${i}`));
    check(response.status === 201, `write durable-${i}: 201`, response.text);
  }
}

async function writeUntilStopped() {
  check(typeof values.out === 'string', '--out given');
  const deadline = Date.now() + 60_000;
  let next = 0;
  let acknowledged = 0;
  let ended;
  const worker = async () => {
    while (Date.now() < deadline) {
      const record = durableRecord(`inflight-${next++}`);
      let response;
      try {
        response = await add(record);
      } catch (error) {
        ended ??= error.cause?.code ?? error.message; // the daemon went away
        return;
      }
      // 503 while closing is an honest refusal; only a 201 is an acknowledgement.
      if (response.status === 201) {
        appendFileSync(values.out, `${record.name}\n`);
        acknowledged++;
      } else check(response.status === 503, `write ${record.name}: 201 or 503`, response.text);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  check(ended !== undefined, 'the daemon stopped within 60 s');
  check(acknowledged > 0, 'some writes were acknowledged');
  console.log(`container-checks: ${acknowledged} writes acknowledged before the daemon went away (${ended})`);
}

async function readBack() {
  const names = values.names
    ? readFileSync(values.names, 'utf8').split('\n').filter(Boolean)
    : Array.from({ length: Number(values.count) }, (_, i) => `durable-${i}`);
  check(names.length > 0, '--count or --names given');
  for (const name of names) {
    const record = durableRecord(name);
    const response = await call('GET', `/endpoint/${record.name}`);
    check(
      response.status === record.statusCode,
      `read back ${record.name}: status ${record.statusCode}`,
      response.status,
    );
    check(response.text === JSON.stringify(record.data), `read back ${record.name}: data byte for byte`, response.text);
  }
}

async function health() {
  const response = await call('GET', '/api/health');
  check(response.status === 200 && response.json?.status === 'ok', '/api/health: ok', response.text);
  check(response.json?.store === values.store, `/api/health: store ${values.store}`, response.text);
}

const commands = { contract, write, 'write-until-stopped': writeUntilStopped, 'read-back': readBack, health };
if (!commands[command]) {
  console.error(`container-checks: unknown command ${command}`);
  process.exit(2);
}
try {
  await commands[command]();
  console.log(`container-checks: ${command}: ${checks} checks passed`);
} catch (error) {
  console.error(`container-checks: ${command}: FAILED: ${error.message}`);
  process.exit(1);
}
