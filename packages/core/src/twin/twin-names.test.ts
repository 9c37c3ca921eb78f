/**
 * The twin engine names no provider (docs/design.md#twins-as-the-provider-answers, "A provider is one object"): what is a
 * provider's own is its object (twin-provider.ts) and its code, a folder of `@mockpoint/twins`
 * (packages/twins/<name>/), loaded on its first twin. This test reads every non-test `.ts` file of
 * the core's `twin/` and names each place one of them names a provider: an identifier, a string,
 * a template's text, a regular expression, a type, an import. The providers are the folders of
 * packages/twins with a profile; their words, each one's name and the title its object gives.
 *
 * Comments are left out: they cite the provider a behaviour was modelled on (Stripe's
 * `previous_attributes`, GitHub's `Link`), which is how a reader checks the engine against the
 * provider's own docs, and they change nothing the engine does. What the rule keeps out is a
 * code path, a message or a type that only one provider's twin takes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const TWIN = dirname(fileURLToPath(import.meta.url));
/** The providers' package: one folder each. */
const TWINS = fileURLToPath(new URL('../../../twins/', import.meta.url));
/** The monorepo's packages. */
const PACKAGES = fileURLToPath(new URL('../../../', import.meta.url));

/** The providers: each folder of the package with a profile, its name and its object's title. */
const PROVIDERS = readdirSync(TWINS)
  .filter((folder) => existsSync(join(TWINS, folder, 'profile.json')))
  .map((name) => ({
    name,
    title: /\btitle: '([^']+)'/.exec(readFileSync(join(TWINS, name, 'provider.ts'), 'utf8'))?.[1] ?? name,
  }));

/** The words that name a provider: each one's name and title, lower-cased. */
const WORDS = [...new Set(PROVIDERS.flatMap(({ name, title }) => [name.toLowerCase(), title.toLowerCase()]))];

/** The kinds of node whose text is code a reader meets: names, strings, templates' text, regular expressions. */
const READ = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.PrivateIdentifier,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateHead,
  ts.SyntaxKind.TemplateMiddle,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
]);

/** Each place `text` names one of `words` outside its comments, as `file:line: text`. */
function namesIn(file: string, text: string, words: readonly string[]): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  // `forEachChild` visits the syntax, not the comments (nor the JSDoc) around it.
  const visit = (node: ts.Node): void => {
    if (READ.has(node.kind)) {
      const written = node.getText(source);
      if (words.some((word) => written.toLowerCase().includes(word))) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(`${file}:${line}: ${written.slice(0, 120)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The engine's files: every non-test `.ts` file of `twin/`. */
function engineFiles(): string[] {
  return readdirSync(TWIN).filter((file) => file.endsWith('.ts') && !file.includes('.test') && !file.endsWith('.d.ts'));
}

describe('the provider-name check', () => {
  it('reads names, strings, templates, regular expressions, types and imports, not comments', () => {
    const text = [
      '// As Stripe answers it.',
      "/** GitHub's `Link`, kept. */",
      "import { stripeFlows } from './stripe-flows.js';",
      "const scheme: 'standard' | 'github' = 'standard';",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template, to be parsed
      'const secret = `whsec_${id}`;',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template, to be parsed
      'if (name === `Stripe-${x}`) run(); /* Stripe */',
      'const host = /api\\.github\\.com/;',
      'const plain = { answer: 42 };',
    ].join('\n');
    expect(namesIn('x.ts', text, ['stripe', 'github'])).toEqual([
      'x.ts:3: stripeFlows',
      "x.ts:3: './stripe-flows.js'",
      "x.ts:4: 'github'",
      'x.ts:6: `Stripe-${',
      'x.ts:7: /api\\.github\\.com/',
    ]);
  });
});

describe('the twin engine (packages/core/src/twin)', () => {
  const files = engineFiles();

  it('is read whole, and the providers are known', () => {
    // The engine's files are seen, and the providers are known (a check that read nothing would pass).
    expect(files).toContain('twin-engine.ts');
    expect(files).toContain('twin-provider.ts');
    expect(files.length).toBeGreaterThan(25);
    expect(PROVIDERS).toEqual(
      expect.arrayContaining([
        { name: 'stripe', title: 'Stripe' },
        { name: 'github', title: 'GitHub' },
      ]),
    );
  });

  it("holds none of a provider's code: its files are its folder of @mockpoint/twins", () => {
    const named = files.filter((file) => PROVIDERS.some(({ name }) => file.startsWith(`${name}-`)));
    expect(named).toEqual([]);
  });

  it('names no provider outside its comments', () => {
    const found = files.flatMap((file) => namesIn(file, readFileSync(join(TWIN, file), 'utf8'), WORDS));
    expect(found).toEqual([]);
  });
});

/**
 * Files outside the providers' folders that name a provider, and why: data the providers share
 * with every user (the generic webhook signature schemes and rate-limit styles, each in its one
 * registry), the one list of providers, and scripts of a provider's maintenance.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'core/src/signing/signature-schemes.ts':
    "the generic webhook signature schemes (any endpoint's deliveries and checks use them), data in the one registry a provider adds to",
  'core/src/api/rate-limit-headers.ts':
    'the built-in rate-limit styles (any route may speak them), data in the one registry a provider adds to',
  'twins/src/index.ts': 'the one list of providers (twins/src/one-list.test.ts)',
  'twins/scripts/stripe-params.mjs': "a provider's maintenance script, run by hand: the parameters its document lacks",
  'twins/scripts/trim-stripe.mjs': "a provider's maintenance script, run by hand: trims its document",
  'twins/scripts/trim-github.mjs': "a provider's maintenance script, run by hand: trims its document",
  'testkit/src/graphql-schemas.ts':
    "test data: GitHub's public GraphQL schema, a large schema for the GraphQL tests, no twin",
};

/** A package's source files but its tests (and their fixtures), its build and the providers' folders. */
function packageSources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (['node_modules', 'dist', 'coverage', 'test', 'fixtures'].includes(entry) || entry.startsWith('.')) return [];
    if (statSync(path).isDirectory()) {
      // A provider's folder is the provider: its words are its own.
      return dirname(path) === join(PACKAGES, 'twins') && existsSync(join(path, 'profile.json'))
        ? []
        : packageSources(path);
    }
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry) && !/\.test(-d)?\.|\.d\.ts$/.test(entry) ? [path] : [];
  });
}

describe("every package but the providers' folders", () => {
  const files = readdirSync(PACKAGES).flatMap((name) =>
    statSync(join(PACKAGES, name)).isDirectory() ? packageSources(join(PACKAGES, name)) : [],
  );
  const named = new Map<string, number>();
  for (const file of files) {
    const found = namesIn(file, readFileSync(file, 'utf8'), WORDS).length;
    if (found > 0) named.set(relative(PACKAGES, file), found);
  }

  it("is read whole, the providers' folders left out", () => {
    const read = files.map((file) => relative(PACKAGES, file));
    expect(read).toEqual(
      expect.arrayContaining([
        'core/src/twin/twin-engine.ts',
        'core/src/webhook/delivery-attempt.ts',
        'web/src/twin-view.ts',
        'server/src/start-server.ts',
        'twins/src/index.ts',
      ]),
    );
    expect(read.filter((file) => PROVIDERS.some(({ name }) => file.startsWith(`twins/${name}/`)))).toEqual([]);
  });

  it('names no provider outside its comments, but in the registries of generic data', () => {
    const outside = [...named].filter(([file]) => !Object.hasOwn(ALLOWED, file));
    expect(Object.fromEntries(outside)).toEqual({});
  });

  it('allows only files that name one', () => {
    expect(Object.keys(ALLOWED).filter((file) => !named.has(file))).toEqual([]);
  });
});
