import { describe, expect, it } from 'vitest';
import { nodeId, nodeIdOf } from './node-ids.js';

/** The MessagePack bytes of a node id's text (URL-safe base64 after its prefix). */
function bytesOf(id: string): number[] {
  const text = id
    .slice(id.indexOf('_') + 1)
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  return [...atob(text + '='.repeat((4 - (text.length % 4)) % 4))].map((char) => char.charCodeAt(0));
}

describe("GitHub's node ids", () => {
  it("are GitHub's form: the prefix, then MessagePack [0, …ids] in URL-safe base64", () => {
    // GitHub's own id of a repository numbered 1.
    expect(nodeId('R', 1)).toBe('R_kgDOAAAAAQ');
    expect(bytesOf(nodeId('I', 258))).toEqual([0x92, 0x00, 0xce, 0, 0, 1, 2]);
    expect(bytesOf(nodeId('X', 7, 9))).toEqual([0x93, 0x00, 0xce, 0, 0, 0, 7, 0xce, 0, 0, 0, 9]);
    // Past 32 bits: a uint64.
    expect(bytesOf(nodeId('I', 2 ** 32))).toEqual([0x92, 0x00, 0xcf, 0, 0, 0, 1, 0, 0, 0, 0]);
    expect(nodeId('I', 0xfbff_fbff)).toMatch(/^I_[A-Za-z0-9_-]+$/);
  });

  it("are one a collection's object: GitHub's prefix of a kind it names, another collection's its own", () => {
    expect(nodeIdOf('/repos/{owner}/{repo}/issues', 1)).toBe(nodeId('I', 1));
    expect(nodeIdOf('/repos/{owner}/{repo}/pulls', 1)).toBe(nodeId('PR', 1));
    expect(nodeIdOf('/repos/{owner}/{repo}/issues/comments', 1)).toBe(nodeId('IC', 1));
    const gist = nodeIdOf('/gists', 1);
    expect(gist).toMatch(/^G_/);
    // Two collections of one prefix (`GC`) never share an id.
    expect(nodeIdOf('/gists/{gist_id}/comments', 1)).not.toBe(nodeIdOf('/gpg/{x}/comments', 1));
    expect(new Set([1, 2, 3].map((id) => nodeIdOf('/gists', id))).size).toBe(3);
  });
});
