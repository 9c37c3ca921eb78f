// Derives today's Stripe parameters from the `stripe` package (docs/twins.md, "API versions"):
// no OpenAPI document newer than 2024-04-10 is published on the registry, so the official SDK
// is the source. For each operation of stripe-node's resources (its `_makeRequest(method, path)`)
// that the trimmed 2024-04-10 document has, its TypeScript types' `params` (`CustomerCreateParams`,
// …) give: the top-level parameter names they declare that the document lacks (`added`), and the
// ones the document requires that they no longer declare (`optional`: promotion codes' `coupon`, now
// inside `promotion`). Written per `METHOD /path` of the document to stripe/params.json.gz; the
// twin takes them as it takes the document's (core/twin-additions.ts).
// Pinned to the stripe devDependency (23.1.0); re-run when stripe publishes, after moving the pin
// and adding the version it pins to stripe/profile.json's `versions.known`:
//   pnpm --filter @mockpoint/twins params
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import ts from 'typescript';

const PINNED = '23.1.0';
const here = dirname(fileURLToPath(import.meta.url));
const folder = join(here, '..', 'stripe');
// Its main module is cjs/stripe.cjs.node.js; its package.json is not among its exports.
const stripeRoot = join(dirname(createRequire(import.meta.url).resolve('stripe')), '..');
const resources = join(stripeRoot, 'esm', 'resources');

/** Stops the script with a message saying what to do. */
function fail(message) {
  console.error(`stripe-params: ${message}`);
  process.exit(1);
}

const { version } = JSON.parse(readFileSync(join(stripeRoot, 'package.json'), 'utf8'));
if (version !== PINNED) fail(`found stripe ${version}, pinned ${PINNED}: install the pinned version, or move PINNED`);
const apiVersion = /ApiVersion = '([^']+)'/.exec(readFileSync(join(stripeRoot, 'esm', 'apiVersion.js'), 'utf8'))?.[1];
const profile = JSON.parse(readFileSync(join(folder, 'profile.json'), 'utf8'));
if (profile.versions?.known.at(-1) !== apiVersion) {
  fail(`stripe ${version} pins ${apiVersion}: make it the last of stripe/profile.json's versions.known`);
}

/** Every file below `dir` whose name ends with `suffix`. */
function filesOf(dir, suffix) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesOf(path, suffix);
    return entry.name.endsWith(suffix) ? [path] : [];
  });
}

/** A path with each parameter as `{}` (`/v1/customers/{}`), to match stripe-node's to the document's. */
function shape(path) {
  return path.replace(/\{[^}]*\}/g, '{}');
}

/** `Class.method` → `METHOD /path` of each `this._makeRequest('POST', `/v1/x/${…}`)` of a resource's JS. */
function requestsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = new Map();
  const visit = (node, owner) => {
    if (ts.isClassDeclaration(node)) owner = node.name?.text;
    if (ts.isMethodDeclaration(node) && owner !== undefined) {
      const method = node.name.getText(source);
      const call = (inner) => {
        if (ts.isCallExpression(inner) && inner.expression.getText(source) === 'this._makeRequest') {
          const [verb, path] = inner.arguments;
          const text = path === undefined ? undefined : pathText(path);
          if (
            verb !== undefined &&
            ts.isStringLiteral(verb) &&
            text !== undefined &&
            !found.has(`${owner}.${method}`)
          ) {
            found.set(`${owner}.${method}`, `${verb.text} ${text}`);
          }
        }
        ts.forEachChild(inner, call);
      };
      ts.forEachChild(node, call);
      return;
    }
    ts.forEachChild(node, (child) => visit(child, owner));
  };
  visit(source, undefined);
  return found;
}

/** A path argument as text, each `${…}` as `{}`; `undefined` for one read at run time. */
function pathText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (!ts.isTemplateExpression(node)) return undefined;
  return node.head.text + node.templateSpans.map((span) => `{}${span.literal.text}`).join('');
}

/**
 * Of a resource's types: `Class.method` → the name of its `params` type, and each interface's
 * top-level property names by its qualified name (`Terminal.ReaderProcessSetupIntentParams`).
 */
function typesOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const params = new Map();
  const interfaces = new Map();
  const visit = (node, space, owner) => {
    if (ts.isModuleDeclaration(node)) space = [...space, node.name.getText(source)];
    if (ts.isClassDeclaration(node)) owner = node.name?.text;
    if (ts.isInterfaceDeclaration(node)) {
      const names = node.members.filter(ts.isPropertySignature).map((member) => member.name.getText(source));
      interfaces.set([...space, node.name.text].join('.'), names);
    }
    if (ts.isMethodDeclaration(node) && owner !== undefined) {
      const param = node.parameters.find((one) => one.name.getText(source) === 'params');
      if (param?.type !== undefined && ts.isTypeReferenceNode(param.type)) {
        const key = `${owner}.${node.name.getText(source)}`;
        if (!params.has(key)) params.set(key, { type: param.type.typeName.getText(source), space });
      }
    }
    ts.forEachChild(node, (child) => visit(child, space, owner));
  };
  visit(source, [], undefined);
  return { params, interfaces };
}

/** The top-level parameter names the document gives an operation (its body's, or its query's), and those its body requires. */
function documentNames(operation) {
  // Its form's, its JSON's, or its only other body's (a file upload's `multipart/form-data`).
  const content = operation.requestBody?.content ?? {};
  const media =
    content['application/x-www-form-urlencoded'] ?? content['application/json'] ?? Object.values(content)[0];
  const body = media?.schema;
  const query = (operation.parameters ?? []).filter((param) => param.in === 'query').map((param) => param.name);
  return { names: new Set([...Object.keys(body?.properties ?? {}), ...query]), required: body?.required ?? [] };
}

const doc = JSON.parse(gunzipSync(readFileSync(join(folder, 'document.json.gz'))).toString('utf8'));
const byShape = new Map();
for (const [path, item] of Object.entries(doc.paths)) {
  for (const method of ['get', 'post', 'delete']) {
    if (item[method] !== undefined) byShape.set(`${method.toUpperCase()} ${shape(path)}`, { path, method });
  }
}

const operations = {};
let matched = 0;
let unmatched = 0;
for (const file of filesOf(resources, '.js')) {
  const requests = requestsOf(file);
  if (requests.size === 0) continue;
  const { params, interfaces } = typesOf(file.replace(/\.js$/, '.d.ts'));
  for (const [key, request] of requests) {
    const found = byShape.get(request);
    if (found === undefined) {
      unmatched++;
      continue;
    }
    matched++;
    const typed = params.get(key);
    if (typed === undefined) continue;
    // A type named inside a namespace (`Terminal.ReaderProcessSetupIntentParams`) or beside it.
    const today = interfaces.get(typed.type) ?? interfaces.get([...typed.space, typed.type].join('.'));
    if (today === undefined) continue;
    const known = documentNames(doc.paths[found.path][found.method]);
    const added = today.filter((name) => !known.names.has(name)).sort();
    // Only a name stripe no longer declares at all: one it made optional (a subscription's `customer`, now
    // or `customer_account`) still names what Stripe requires one of, so the document's rule stands.
    const optional = known.required.filter((name) => !today.includes(name)).sort();
    const change = { ...(added.length > 0 ? { added } : {}), ...(optional.length > 0 ? { optional } : {}) };
    if (Object.keys(change).length > 0) operations[`${found.method.toUpperCase()} ${found.path}`] = change;
  }
}

const sorted = Object.fromEntries(Object.entries(operations).sort(([a], [b]) => a.localeCompare(b)));
const out = { stripe: version, apiVersion, document: doc.info?.version ?? '2024-04-10', operations: sorted };
const text = JSON.stringify(out);
writeFileSync(join(folder, 'params.json.gz'), gzipSync(text, { level: 9 }));
const count = (member) => Object.values(sorted).reduce((sum, change) => sum + (change[member]?.length ?? 0), 0);
console.log(
  `stripe-params: stripe ${version} (${apiVersion}): ${matched} operations of the document matched (${unmatched} not in it), ` +
    `${count('added')} parameters added and ${count('optional')} no longer required, in ${Object.keys(sorted).length} of them; ${text.length} bytes of JSON`,
);
