/**
 * The source files the house tests read (`layers.test.ts`, `answer-kinds.test.ts`):
 * every non-test `.ts` file under a folder, declarations left out.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every non-test `.ts` file under `dir`, relative to `root` (with the platform's separator). */
export function sourceFiles(root: string, dir: string = root): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(root, path));
    else if (entry.name.endsWith('.ts') && !entry.name.includes('.test') && !entry.name.endsWith('.d.ts')) {
      found.push(relative(root, path));
    }
  }
  return found;
}
