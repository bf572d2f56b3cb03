// Which module a worker starts from: the bundle of a current build, else its TypeScript source.
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compiledEntry } from './worker-entry.mjs';

/** A source tree with an entry and one module it imports, and a build of it made at `builtAt`. */
function fixture(builtAt: number) {
  const root = mkdtempSync(path.join(tmpdir(), 'worker-entry-'));
  const buildDir = path.join(root, '.build', 'workers');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(buildDir, { recursive: true });
  const entry = path.join(root, 'src', `entry-${Math.random().toString(36).slice(2)}.ts`);
  const dep = path.join(root, 'src', 'dep.ts');
  for (const f of [entry, dep]) {
    writeFileSync(f, '');
    utimesSync(f, new Date(builtAt - 60_000), new Date(builtAt - 60_000));
  }
  const manifest = {
    root,
    builtAt,
    entries: { [path.relative(root, entry)]: { out: 'entry.mjs', inputs: [path.relative(root, entry), path.relative(root, dep)] } },
  };
  writeFileSync(path.join(buildDir, 'manifest.json'), JSON.stringify(manifest));
  return { root, buildDir, entry: pathToFileURL(entry).href, dep };
}

describe('compiledEntry', () => {
  it('names the bundle when no source it was built from changed since', () => {
    const f = fixture(Date.now());
    expect(compiledEntry(f.entry, f.buildDir)).toEqual({ url: pathToFileURL(path.join(f.buildDir, 'entry.mjs')).href });
  });

  it('falls back to the source when a module the bundle holds changed after the build', () => {
    const f = fixture(Date.now() - 10_000);
    utimesSync(f.dep, new Date(), new Date());
    expect(compiledEntry(f.entry, f.buildDir)).toEqual({ url: null, why: 'src/dep.ts changed after the build' });
  });

  it('falls back when there is no build, or the entry is not in it', () => {
    const f = fixture(Date.now());
    expect(compiledEntry(f.entry, path.join(f.root, 'nowhere')).url).toBeNull();
    const other = pathToFileURL(path.join(f.root, 'src', 'other.ts')).href;
    expect(compiledEntry(other, f.buildDir)).toEqual({ url: null, why: 'src/other.ts is not in the build' });
  });
});
