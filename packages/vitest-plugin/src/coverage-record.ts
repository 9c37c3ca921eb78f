/**
 * The worker's side of the run's coverage: each test's session's coverage, read
 * just before its namespace is deleted and written as one JSON file into the
 * folder the global setup gave, where the run adds them up at its end
 * (coverage-gather.ts).
 *
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type NamespaceApi, namespaceCoverage } from './namespaces.js';

/** Writes the coverage of the namespace `name` (read with its `token`) to `{dir}/{name}.json`. */
export async function recordSessionCoverage(
  api: NamespaceApi,
  dir: string,
  name: string,
  token: string,
): Promise<void> {
  const report = await namespaceCoverage(api, name, token);
  await writeFile(join(dir, `${name}.json`), JSON.stringify(report));
}
