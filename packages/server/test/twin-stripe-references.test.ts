// A body parameter naming another object of the Stripe twin (#84): on a fresh twin (`unseen:
// "missing"`) a made-up id is refused as Stripe refuses it — `400` `resource_missing`, `No such
// customer: 'cus_nope'`, `param` the field — and nothing is kept; with `unseen: "examples"` the
// document's example answers. The cases are generated from the document: every create of a
// collection with a parameter whose namesake in the answer Stripe may expand (`x-expansionResources`).
// Against the built daemon on memory and LevelDB; every process listens on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sharedTwinDaemon } from './helpers/twin.js';

type Schema = Record<string, unknown>;

const DOC = JSON.parse(
  gunzipSync(readFileSync(new URL('../../twins/stripe/document.json.gz', import.meta.url))).toString('utf8'),
) as { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };

function resolved(schema: unknown): Schema {
  let current = schema as Schema | undefined;
  while (current !== undefined && typeof current.$ref === 'string') {
    current = DOC.components.schemas[(current.$ref as string).split('/').at(-1) as string];
  }
  return current ?? {};
}

/** A value for a required parameter the case does not test, or `undefined`: the case is left out. */
function filler(name: string, schema: Schema): string | undefined {
  if (name === 'currency') return 'usd';
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.type === 'integer') return '1000';
  if (name === 'name' || name === 'display_name') return 'Referenced';
  return undefined;
}

interface Case {
  path: string;
  param: string;
  body: Record<string, string>;
}

/** The response schema of an operation's `200`. */
function answerOf(operation: Schema | undefined): Schema {
  const ok = (operation?.responses as Schema | undefined)?.['200'] as Schema | undefined;
  return resolved(((ok?.content as Schema | undefined)?.['application/json'] as Schema | undefined)?.schema);
}

/** Whether the document has `path/{id}`, a collection's item. */
function isCollection(path: string): boolean {
  return Object.keys(DOC.paths).some(
    (other) => other.startsWith(`${path}/{`) && !other.slice(path.length + 2).includes('/'),
  );
}

/** The objects (`customer`) whose collection (`/v1/customers`) is at the top of the paths. */
const COLLECTED = new Set(
  Object.entries(DOC.paths)
    .filter(([path]) => !path.includes('{') && isCollection(path))
    .flatMap(([path]) => {
      const item = Object.entries(DOC.paths).find(
        ([other]) => other.startsWith(`${path}/{`) && !other.slice(path.length + 2).includes('/'),
      );
      const answer = answerOf(item?.[1].get);
      // A customer's read answers a customer or a deleted one.
      return [answer, ...((answer.anyOf ?? []) as Schema[]).map(resolved)].flatMap(
        (one) => ((one.properties as Record<string, Schema> | undefined)?.object?.enum ?? []) as string[],
      );
    }),
);

/** Every create of a collection (a `POST P` with a `GET P/{id}`) and each parameter it may name another object by. */
function cases(): Case[] {
  const found: Case[] = [];
  for (const [path, operations] of Object.entries(DOC.paths)) {
    const post = operations.post;
    if (post === undefined || path.includes('{')) continue;
    if (!isCollection(path)) continue;
    const content = (post.requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined;
    const body = resolved(content?.['application/x-www-form-urlencoded']?.schema);
    const sent = (body.properties ?? {}) as Record<string, Schema>;
    const shown = (answerOf(post).properties ?? {}) as Record<string, Schema>;
    for (const param of Object.keys(sent)) {
      const expandable = shown[param]?.['x-expansionResources'] as Schema | undefined;
      const refs = ((expandable?.oneOf ?? []) as Schema[]).map(resolved);
      const objects = refs.flatMap(
        (ref) => ((ref.properties as Record<string, Schema>)?.object?.enum ?? []) as string[],
      );
      // An id is text (a charge's old integer `application_fee` names none), of an object the twin keeps.
      const text = resolved(sent[param]);
      const texts =
        text.type === 'string' || ((text.anyOf ?? []) as Schema[]).some((one) => resolved(one).type === 'string');
      if (!texts || !objects.some((object) => COLLECTED.has(object))) continue;
      const others = ((body.required ?? []) as string[]).filter((name) => name !== param);
      const filled: Record<string, string> = {};
      for (const name of others) {
        const value = filler(name, resolved(sent[name]));
        if (value !== undefined) filled[name] = value;
      }
      if (Object.keys(filled).length < others.length) continue;
      found.push({ path, param, body: { ...filled, [param]: `${param}_nope_84` } });
    }
  }
  return found;
}

/** The profile's `references`: body parameters, at any depth, by their own name, to a collection. */
const PROFILED = (
  JSON.parse(readFileSync(new URL('../../twins/stripe/profile.json', import.meta.url), 'utf8')) as {
    references: Record<string, string>;
  }
).references;

/** Whether a parameter's schema takes text (an id), itself or one of its `anyOf`. */
function takesText(schema: Schema): boolean {
  return schema.type === 'string' || ((schema.anyOf ?? []) as Schema[]).some((one) => resolved(one).type === 'string');
}

/** The name a form key ends in (`price` of `items[0][price]`). */
function lastName(key: string): string {
  return key.endsWith(']') ? key.slice(key.lastIndexOf('[') + 1, -1) : key;
}

/**
 * A value the document needs at `key` that the case does not test (an item's `quantity`, a
 * schedule phase's `items[0][price]`, of a Price the case makes first), as form fields;
 * `undefined`: the case is left out.
 */
function needed(schema: Schema, key: string, depth: number): Record<string, string> | undefined {
  const name = lastName(key);
  if (PROFILED[name] === '/v1/prices' && takesText(schema)) return { [key]: HELD_PRICE };
  const option = [schema, ...((schema.anyOf ?? []) as Schema[]).map(resolved)].find((one) =>
    one.type !== undefined && one.type !== 'string' ? true : filler(name, one) !== undefined,
  );
  if (option === undefined || depth > 5) return undefined;
  if (option.type === 'array' && option.items !== undefined)
    return needed(resolved(option.items), `${key}[0]`, depth + 1);
  if (option.type === 'object' && option.properties !== undefined) {
    const properties = option.properties as Record<string, Schema>;
    const required = (option.required ?? []) as string[];
    // An item of no required field that names a price (a phase's item): its price.
    const names = required.length === 0 && 'price' in properties ? ['price'] : required;
    return siblings(properties, names, key, depth);
  }
  const value = filler(name, option);
  return value === undefined ? undefined : { [key]: value };
}

/** What `names` of an object at `key` need, together; `undefined` if one of them cannot be filled. */
function siblings(
  properties: Record<string, Schema>,
  names: readonly string[],
  key: string,
  depth: number,
): Record<string, string> | undefined {
  const filled: Record<string, string> = {};
  for (const name of names) {
    const one = needed(resolved(properties[name]), `${key}[${name}]`, depth + 1);
    if (one === undefined) return undefined;
    Object.assign(filled, one);
  }
  return filled;
}

/**
 * The form keys below a create's parameter (`items[0][price]`) whose name the profile's
 * `references` gives a collection, by the request's schema (objects' properties, arrays' first
 * item, each `anyOf` option, to depth 5), each with the fields its objects on the way require.
 */
function nestedKeys(schema: Schema, key: string, depth: number, around: Record<string, string>, into: Case[]): void {
  if (depth > 5) return;
  const options = [schema, ...((schema.anyOf ?? []) as Schema[]).map(resolved)];
  for (const option of options) {
    if (option.type === 'array' && option.items !== undefined) {
      nestedKeys(resolved(option.items), `${key}[0]`, depth + 1, around, into);
    }
    const properties = (option.properties ?? {}) as Record<string, Schema>;
    const required = (option.required ?? []) as string[];
    for (const [name, inner] of Object.entries(properties)) {
      const at = `${key}[${name}]`;
      const others = siblings(
        properties,
        required.filter((other) => other !== name),
        key,
        depth,
      );
      if (others === undefined) continue;
      const body = { ...around, ...others };
      if (Object.hasOwn(PROFILED, name) && takesText(resolved(inner))) {
        into.push({ path: '', param: at, body: { ...body, [at]: `${name}_nope_84` } });
      } else nestedKeys(resolved(inner), at, depth + 1, body, into);
    }
  }
}

/** Where a nested case's required `customer` goes: one the twin holds, made before the case. */
const HELD_CUSTOMER = '{held customer}';
/** Where a nested case's required price goes (a phase's item): one the twin holds. */
const HELD_PRICE = '{held price}';

/** Every create of a collection and each parameter below its top level the profile names a reference by. */
function nestedCases(): Case[] {
  const found: Case[] = [];
  for (const [path, operations] of Object.entries(DOC.paths)) {
    const post = operations.post;
    if (post === undefined || path.includes('{') || !isCollection(path)) continue;
    const content = (post.requestBody as Schema | undefined)?.content as Record<string, Schema> | undefined;
    const body = resolved(content?.['application/x-www-form-urlencoded']?.schema);
    const sent = (body.properties ?? {}) as Record<string, Schema>;
    const required = (body.required ?? []) as string[];
    const filled: Record<string, string> = {};
    for (const name of required) {
      // A customer the case makes first (a subscription's), so only the nested id is made up.
      const value = name === 'customer' ? HELD_CUSTOMER : filler(name, resolved(sent[name]));
      if (value !== undefined) filled[name] = value;
    }
    for (const [name, schema] of Object.entries(sent)) {
      // A required parameter the case cannot fill, other than the one the key is below: left out.
      if (required.some((other) => other !== name && filled[other] === undefined)) continue;
      const keys: Case[] = [];
      nestedKeys(resolved(schema), name, 1, {}, keys);
      const seen = new Set<string>();
      for (const one of keys) {
        if (seen.has(one.param)) continue;
        seen.add(one.param);
        found.push({ path, param: one.param, body: { ...filled, ...one.body } });
      }
    }
  }
  return found;
}

const CASES = cases();
const NESTED = nestedCases();
const AUTH = { authorization: 'Bearer sk_test_references' };

async function post(root: string, path: string, form: Record<string, string>) {
  const response = await fetch(`${root}${path}`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown> & { error?: Record<string, unknown> },
  };
}

describe.each(['memory', 'level'] as const)('the Stripe twin refuses an id it does not hold (%s)', (store) => {
  const twin = sharedTwinDaemon('stripe', async () => store, 5);

  it('finds the cases in the document, the issue’s among them', () => {
    const named = CASES.map((one) => `${one.path} ${one.param}`);
    for (const one of [
      '/v1/refunds payment_intent',
      '/v1/refunds charge',
      '/v1/invoiceitems customer',
      '/v1/subscriptions customer',
      '/v1/payment_intents customer',
    ]) {
      expect(named).toContain(one);
    }
  });

  it('refuses each made-up id with 400 resource_missing naming the parameter, nothing kept', {
    timeout: 120_000,
  }, async () => {
    const { root } = await twin();
    const answered: string[] = [];
    for (const one of CASES) {
      const answer = await post(root, one.path, one.body);
      const seen = `${one.path} ${one.param}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
      const error = answer.body.error;
      if (answer.status !== 400 || error?.code !== 'resource_missing') {
        answered.push(seen);
        continue;
      }
      expect(error.param, seen).toBe(one.param);
      expect(error.type, seen).toBe('invalid_request_error');
      expect(error.message, seen).toMatch(new RegExp(`^No such [a-z_. ]+: '${one.param}_nope_84'$`));
    }
    expect(answered).toEqual([]);
    for (const path of new Set(CASES.map((one) => one.path))) {
      const listed = await fetch(`${root}${path}`, { headers: AUTH });
      const body = (await listed.json()) as { data?: unknown[] };
      if (listed.status === 200) expect(body.data, path).toEqual([]);
    }
  });

  it('refuses each made-up id below the top level, found in the document by the profile', {
    timeout: 120_000,
  }, async () => {
    const { root } = await twin();
    const held = String((await post(root, '/v1/customers', { email: 'nested-cases@example.com' })).body.id);
    const price = await post(root, '/v1/prices', {
      currency: 'usd',
      unit_amount: '500',
      'recurring[interval]': 'month',
      'product_data[name]': 'Nested cases',
    });
    const heldPrice = String(price.body.id);
    const named = NESTED.map((one) => `${one.path} ${one.param}`);
    for (const one of [
      '/v1/subscriptions items[0][price]',
      '/v1/customers invoice_settings[default_payment_method]',
      '/v1/invoices discounts[0][coupon]',
      '/v1/subscription_schedules phases[0][items][0][price]',
      '/v1/checkout/sessions line_items[0][price]',
    ]) {
      expect(named).toContain(one);
    }
    const answered: string[] = [];
    for (const one of NESTED) {
      const form = Object.fromEntries(
        Object.entries(one.body).map(([key, value]) => [
          key,
          value === HELD_CUSTOMER ? held : value === HELD_PRICE ? heldPrice : value,
        ]),
      );
      const answer = await post(root, one.path, form);
      const seen = `${one.path} ${one.param}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
      const error = answer.body.error;
      if (answer.status !== 400 || error?.code !== 'resource_missing' || error.param !== one.param) {
        answered.push(seen);
        continue;
      }
      const id = String(one.body[one.param]);
      expect(error.message, seen).toMatch(new RegExp(`^No such [a-z_. ]+: '${id}'$`));
    }
    expect(answered).toEqual([]);
    for (const path of new Set(NESTED.map((one) => one.path))) {
      if (path === '/v1/customers') continue;
      const listed = await fetch(`${root}${path}`, { headers: AUTH });
      const body = (await listed.json()) as { data?: unknown[] };
      if (listed.status === 200) expect(body.data, path).toEqual([]);
    }
  });

  it('refuses a made-up id at depth, by the parameters the profile names', async () => {
    const { root } = await twin();
    const customer = await post(root, '/v1/customers', { email: 'nested@example.com' });
    const id = String(customer.body.id);
    for (const [path, form, param, message] of [
      [
        '/v1/subscriptions',
        { customer: id, 'items[0][price]': 'price_nope' },
        'items[0][price]',
        "No such price: 'price_nope'",
      ],
      [
        '/v1/customers',
        { 'invoice_settings[default_payment_method]': 'pm_nope' },
        'invoice_settings[default_payment_method]',
        "No such payment_method: 'pm_nope'",
      ],
      [
        '/v1/invoices',
        { customer: id, 'discounts[0][coupon]': 'co_nope' },
        'discounts[0][coupon]',
        "No such coupon: 'co_nope'",
      ],
    ] as const) {
      const answer = await post(root, path, form);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'resource_missing', param, message });
    }
    const subscriptions = await fetch(`${root}/v1/subscriptions`, { headers: AUTH });
    expect(((await subscriptions.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('answers from the examples with unseen "examples", and takes ids it holds and test ids', async () => {
    const examples = await twin({ unseen: 'examples' });
    const refund = await post(examples.root, '/v1/refunds', { payment_intent: 'pi_nope' });
    expect(refund.status).toBe(200);
    const { root } = await twin();
    const customer = await post(root, '/v1/customers', { email: 'held@example.com' });
    expect(customer.status).toBe(200);
    const id = String(customer.body.id);
    const item = await post(root, '/v1/invoiceitems', { customer: id, amount: '500', currency: 'usd' });
    expect(item.status, JSON.stringify(item.body)).toBe(200);
    const intent = await post(root, '/v1/payment_intents', {
      amount: '500',
      currency: 'usd',
      customer: id,
      payment_method: 'pm_card_visa',
    });
    expect(intent.status, JSON.stringify(intent.body)).toBe(200);
    const missing = await post(root, '/v1/payment_intents', { amount: '500', currency: 'usd', customer: 'cus_nope' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      code: 'resource_missing',
      message: "No such customer: 'cus_nope'",
      param: 'customer',
    });
  });
});
