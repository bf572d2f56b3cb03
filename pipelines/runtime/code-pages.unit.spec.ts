// Which of a process's mappings code-pages.ts drops: a code file's private, read-only mappings with no
// page of their own; never a writable one, the relocated constants (RELRO), another file or anonymous memory.
import { describe, expect, it } from 'vitest';
import { droppableMappings, isCodeFile, parseSmaps } from './code-pages.ts';

const LIB = '/app/node_modules/@chdb/lib-linux-x64-gnu/libchdb.so';
const NODE = '/usr/bin/node';

function mapping(range: string, perms: string, path: string, rss: number, anon = 0, dirty = 0): string {
  return [
    `${range} ${perms} 00000000 fe:00 5311819 ${path}`.trimEnd(),
    `Size:             148920 kB`,
    `Rss:              ${rss} kB`,
    `Pss:              ${rss} kB`,
    `Private_Clean:    ${rss - dirty} kB`,
    `Private_Dirty:    ${dirty} kB`,
    `Anonymous:        ${anon} kB`,
    `VmFlags: rd mr mw me sd`,
  ].join('\n');
}

const SMAPS = [
  mapping('7f93c7000000-7f93d016e000', 'r--p', LIB, 51424),
  mapping('7f93d016e000-7f93e7f48000', 'r-xp', LIB, 140140),
  mapping('7f93e7f48000-7f93e8bc4000', 'r--p', LIB, 12768, 12764, 12764),
  mapping('7f93e8bc4000-7f93e8c1b000', 'rw-p', LIB, 344, 336, 336),
  mapping('55d0c0000000-55d0c3000000', 'r-xp', NODE, 40000),
  mapping('55d0c3000000-55d0c3100000', 'r--p', NODE, 0),
  mapping('7f0000000000-7f0000100000', 'r-xp', '/usr/lib/x86_64-linux-gnu/libc.so.6', 900),
  mapping('7f0000200000-7f0000300000', 'r--s', LIB, 100),
  mapping('7f0000400000-7f0004400000', 'rw-p', '', 60000, 60000, 60000),
  mapping('7f0005000000-7f0005100000', 'r--p', '[vvar]', 4),
].join('\n');

describe('code pages', () => {
  it('parses every mapping of smaps with its range and resident sizes', () => {
    const maps = parseSmaps(SMAPS);
    expect(maps).toHaveLength(10);
    expect(maps[1]).toEqual({ start: 0x7f93d016e000n, end: 0x7f93e7f48000n, perms: 'r-xp', path: LIB, rssKb: 140140, anonymousKb: 0, privateDirtyKb: 0 });
    expect(maps[8]).toMatchObject({ path: '', rssKb: 60000, anonymousKb: 60000 });
  });

  it('names libchdb and the node executable as code files, nothing else', () => {
    expect(isCodeFile(LIB, NODE)).toBe(true);
    expect(isCodeFile('/x/chdb/dist/libchdb.so.25.8', NODE)).toBe(true);
    expect(isCodeFile(NODE, NODE)).toBe(true);
    expect(isCodeFile('/usr/bin/node2', NODE)).toBe(false);
    expect(isCodeFile('/data/chdb/store/libchdb.so.bin', NODE)).toBe(false);
    expect(isCodeFile('', NODE)).toBe(false);
  });

  it("drops libchdb's and node's clean read-only private mappings only", () => {
    const dropped = droppableMappings(parseSmaps(SMAPS), NODE).map((m) => `${m.perms} ${m.path} ${m.rssKb}`);
    expect(dropped).toEqual([`r--p ${LIB} 51424`, `r-xp ${LIB} 140140`, `r-xp ${NODE} 40000`]);
  });
});
