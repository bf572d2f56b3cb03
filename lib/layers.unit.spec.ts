// The import graph's layers: pipelines/ sits below api/ and never imports it (the shared words and
// the error catalog live in lib/), and no module of api/, pipelines/ or lib/ imports itself back
// through others (type imports count: a cycle of types still ties the modules together). The eslint
// rule says the first on each edit; this test holds both over every file, whatever runs the suite.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Relative module specifiers of `import … from`, `export … from` and `import(…)`. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.[^'"]+)['"]/g)].map((m) => m[1]);
}

describe('layers', () => {
  it('no file under pipelines/ imports a module under api/', () => {
    const api = join(ROOT, 'api') + '/';
    const offenders = tsFiles(join(ROOT, 'pipelines')).flatMap((f) =>
      specifiers(readFileSync(f, 'utf8'))
        .filter((s) => resolve(dirname(f), s).startsWith(api))
        .map((s) => `${relative(ROOT, f)} imports ${s}`),
    );
    expect(offenders).toEqual([]);
  });
  it('no import cycle among the modules of api/, pipelines/ and lib/', () => {
    const files = ['api', 'pipelines', 'lib'].flatMap((d) => tsFiles(join(ROOT, d))).filter((f) => !/\.spec\.ts$/.test(f));
    const edges = new Map(files.map((f) => [f, specifiers(readFileSync(f, 'utf8')).map((s) => resolve(dirname(f), s)).filter((t) => t.endsWith('.ts') && existsSync(t))]));
    // Depth-first search; a module met again while still on the path closes a cycle.
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const path: string[] = [];
    const visit = (f: string): void => {
      state.set(f, 'open');
      path.push(f);
      for (const t of edges.get(f) ?? []) {
        if (state.get(t) === 'open') cycles.push([...path.slice(path.indexOf(t)), t].map((x) => relative(ROOT, x)).join(' -> '));
        else if (!state.has(t)) visit(t);
      }
      path.pop();
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });
});
