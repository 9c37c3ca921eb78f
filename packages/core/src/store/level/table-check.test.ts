import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonText } from '../../codec/json-text.js';
import { LevelStore } from './index.js';
import { checkTable, checkTables } from './table-check.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A data directory with one real table of `n` records (written, then turned into a table by a reopen). */
async function withTable(n: number): Promise<{ dir: string; table: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'mockpoint-tables-'));
  dirs.push(dir);
  const store = await LevelStore.open({ dir });
  for (let i = 0; i < n; i++) {
    await store.put({ name: `r${i}`, data: JsonText.from({ i, text: 'x'.repeat(300) }), statusCode: 200, delay: 0 });
  }
  await store.close();
  await (await LevelStore.open({ dir })).close();
  const table = (await readdir(dir)).find((name) => name.endsWith('.ldb')) as string;
  return { dir, table };
}

describe('checkTables', () => {
  it('finds nothing wrong with the tables LevelDB wrote, compressed blocks included', async () => {
    const { dir, table } = await withTable(300);
    expect(table).toBeDefined();
    expect(await checkTables(dir)).toEqual([]);
  });

  it('finds a damaged footer, and a damaged data block, by file', async () => {
    const { dir, table } = await withTable(300);
    const bytes = await readFile(join(dir, table));
    const footer = Uint8Array.from(bytes);
    footer[footer.length - 1] = (footer[footer.length - 1] as number) ^ 0xff;
    expect(checkTable(footer)).toBe('bad magic number in the footer');
    const block = Uint8Array.from(bytes);
    block[100] = (block[100] as number) ^ 0x01;
    expect(checkTable(block)).toMatch(/^data block checksum mismatch at offset 0$/);
    await writeFile(join(dir, table), footer);
    expect(await checkTables(dir)).toEqual([{ file: table, problem: 'bad magic number in the footer' }]);
    const store = await LevelStore.open({ dir });
    expect(store.damagedTables).toEqual([{ file: table, problem: 'bad magic number in the footer' }]);
    expect(store.health()).toMatchObject({ status: 'degraded', reason: expect.stringContaining('mockpoint repair') });
    await store.close();
  });
});
