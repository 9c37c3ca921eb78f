/**
 * GraphQL schemas the tests share: costly shapes that the save-time bounds
 * refuse (docs/graphql.md#bounds).
 *
 * @module
 */

/** `n` interfaces, each implementing every one before it (and so naming their fields): 900 make a 2.8 MB schema. */
export function interfaceChain(n: number): string {
  const parts = ['type Query { root: I0 }'];
  for (let i = 0; i < n; i++) {
    const names = Array.from({ length: i }, (_, j) => `I${j}`);
    parts.push(`interface I${i}${i === 0 ? '' : ` implements ${names.join(' & ')}`} { f: String }`);
  }
  return parts.join('\n');
}

/** GitHub's public GraphQL schema (1.2 MB of SDL, 12,781 elements: within every bound), from `@octokit/graphql-schema`. */
export async function githubSchema(): Promise<string> {
  const { schema } = await import('@octokit/graphql-schema');
  return schema.idl;
}
