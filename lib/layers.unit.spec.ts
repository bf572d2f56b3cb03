// The import graph's layers: pipelines/ sits below api/ and never imports it (the shared words and
// the error catalog live in lib/). The eslint rule says the same on each edit; this test holds it
// over every file, test files included, whatever runs the suite.
import { readdirSync, readFileSync } from 'node:fs';
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
});
