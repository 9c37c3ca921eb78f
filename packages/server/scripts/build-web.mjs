// Copies the web page and its static assets next to the built CLI (dist/web).
import { cpSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src/web/', import.meta.url));
const out = fileURLToPath(new URL('../dist/web/', import.meta.url));
mkdirSync(out, { recursive: true });
cpSync(src, out, { recursive: true, filter: (path) => !path.endsWith('.ts') });
