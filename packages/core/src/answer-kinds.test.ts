/**
 * The kinds of answer (`EndpointAnswer`'s `kind`: respond, stream, fault, relay,
 * upgrade) are dispatched on in one place, `answer/match-answer.ts`'s
 * `matchAnswer`: a new kind is one new case there. This test parses every
 * non-test `.ts` file of `src` and names each branch on an answer's kind (a
 * `case 'stream':`, a `kind === 'relay'`) outside that one switch.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './test-support/source-files.js';

const SRC = dirname(fileURLToPath(import.meta.url));

/** The kinds of `EndpointAnswer`. */
const KINDS = new Set(['respond', 'stream', 'fault', 'relay', 'upgrade', 'call']);

/** The one dispatch: its file, and the one switch it has. */
const DISPATCH = 'answer/match-answer.ts';

/** One branch on an answer kind. */
interface Branch {
  /** The file, relative to `src` with `/`. */
  file: string;
  line: number;
  /** `switch` (a switch with an answer kind's case) or `compare` (`kind === '…'`, `!==`). */
  how: 'switch' | 'compare';
}

/** Whether an expression reads a `kind` (`kind`, `answer.kind`, `a?.b.kind`). */
function readsKind(node: ts.Expression): boolean {
  const inner = ts.isParenthesizedExpression(node) ? node.expression : node;
  if (ts.isIdentifier(inner)) return inner.text === 'kind';
  return ts.isPropertyAccessExpression(inner) && inner.name.text === 'kind';
}

/** Whether an expression is the literal of an answer kind. */
function isKind(node: ts.Expression): boolean {
  return ts.isStringLiteralLike(node) && KINDS.has(node.text);
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** The branches on answer kinds in a file's text: comments and strings are not read as code. */
function branchesOf(file: string, text: string): Branch[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: Branch[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isSwitchStatement(node) && readsKind(node.expression)) {
      const cases = node.caseBlock.clauses.filter((clause) => ts.isCaseClause(clause) && isKind(clause.expression));
      if (cases.length > 0) found.push({ file, line: at(node), how: 'switch' });
    } else if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      const { left, right } = node;
      if ((readsKind(left) && isKind(right)) || (isKind(left) && readsKind(right))) {
        found.push({ file, line: at(node), how: 'compare' });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Each branch that breaks the rule, as `file:line how`: outside the dispatch, or a second switch in it. */
function problems(branches: readonly Branch[]): string[] {
  const out: string[] = [];
  let dispatches = 0;
  for (const branch of branches) {
    if (branch.file === DISPATCH && branch.how === 'switch' && ++dispatches === 1) continue;
    out.push(`${branch.file}:${branch.line} ${branch.how} on an answer kind`);
  }
  if (dispatches === 0) out.push(`${DISPATCH} has no switch over the answer kinds`);
  return out;
}

describe('the answer-kind check', () => {
  it('finds switches and comparisons on an answer kind, not comments, strings or other kinds', () => {
    const text = [
      "// if (answer.kind === 'relay') in a comment",
      'const said = "answer.kind === \'stream\'";',
      "switch (answer.kind) { case 'respond': break; }",
      "switch (target.kind) { case 'name': break; }",
      "if (sent?.kind !== 'fault') {}",
      "if ('upgrade' == kind) {}",
      "if (body.kind === 'json' || recorded.kind === 'cut') {}",
      "const cases = { respond: () => 1, kind: 'stream' };",
    ].join('\n');
    expect(branchesOf('engine/x.ts', text)).toEqual([
      { file: 'engine/x.ts', line: 3, how: 'switch' },
      { file: 'engine/x.ts', line: 5, how: 'compare' },
      { file: 'engine/x.ts', line: 6, how: 'compare' },
    ]);
  });

  it('names every branch outside the one switch of the dispatch', () => {
    const branches: Branch[] = [
      { file: DISPATCH, line: 40, how: 'switch' },
      { file: DISPATCH, line: 60, how: 'switch' },
      { file: 'answer/queue/queued-answer.ts', line: 3, how: 'compare' },
      { file: 'engine/sink.ts', line: 9, how: 'switch' },
      { file: 'engine/grpc-edge.ts', line: 1, how: 'compare' },
    ];
    expect(problems(branches)).toEqual([
      `${DISPATCH}:60 switch on an answer kind`,
      'answer/queue/queued-answer.ts:3 compare on an answer kind',
      'engine/sink.ts:9 switch on an answer kind',
      'engine/grpc-edge.ts:1 compare on an answer kind',
    ]);
    expect(problems([])).toEqual([`${DISPATCH} has no switch over the answer kinds`]);
  });
});

describe('the answer kinds of packages/core/src', () => {
  const files = sourceFiles(SRC).map((file) => file.split(sep).join('/'));
  const branches = files.flatMap((file) => branchesOf(file, readFileSync(join(SRC, file), 'utf8')));

  it(`are dispatched on only by ${DISPATCH}'s one switch`, () => {
    expect(files.length).toBeGreaterThan(200);
    expect(problems(branches)).toEqual([]);
  });
});
