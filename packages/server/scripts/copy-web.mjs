// Copies the web page's build output (the private @mockpoint/web package, built
// before this one) into dist/web, so the published daemon carries its page.
//
// Usage: node scripts/copy-web.mjs
import { cpSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const webDir = join(dirname(createRequire(import.meta.url).resolve('@mockpoint/web/package.json')), 'dist');
if (!existsSync(join(webDir, 'index.html'))) {
  console.error(`copy-web: ${webDir}/index.html is missing; build @mockpoint/web first (pnpm build builds both)`);
  process.exit(1);
}
const target = join(packageDir, 'dist', 'web');
rmSync(target, { recursive: true, force: true });
cpSync(webDir, target, { recursive: true });
console.log(`copy-web: ${webDir} -> dist/web`);
