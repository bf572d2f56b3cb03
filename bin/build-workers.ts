// Compiles the worker threads' entries and the service's main (bin/run.ts) to plain JavaScript, one
// bundle each, under .build/workers/ (or --out DIR), with a manifest the launchers read
// (pipelines/runtime/worker-entry.mjs; bin/start.mjs for the main thread): a thread started from its
// bundle needs no tsx loader thread, 15-17 MB of RSS less per worker (bench/soak.md), and the main
// thread compiles no TypeScript at start. Run at install (`make install`); without a build, or after
// a source changes, each starts through tsx as before. Packages stay external (resolved from
// node_modules as usual). With them, native/code-pages.c as a Node addon under .build/native/ when the
// machine has a C compiler and Node's headers (pipelines/runtime/code-pages.ts; without it the service
// runs as before, its code pages resident).
// Usage: node --import tsx bin/build-workers.ts [--out DIR]
import { build, type Plugin } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Each worker's TypeScript entry (as its launcher names it) and its bundle's file name. */
export const WORKER_ENTRIES: Record<string, string> = {
  'pipelines/runtime/stage-worker.ts': 'stage-worker.mjs',
  'pipelines/runtime/history-worker.ts': 'history-worker.mjs',
  'pipelines/venues/simulator/thread-worker.ts': 'simulator-worker.mjs',
  'pipelines/venues/pollers/thread-worker.ts': 'pollers-worker.mjs',
  'pipelines/runtime/pipeline-worker.ts': 'pipeline-worker.mjs',
};

/** The service's main thread (`make run`, `npm start`: bin/start.mjs imports it and calls main). */
export const MAIN_ENTRY: Record<string, string> = { 'bin/run.ts': 'run.mjs' };

/**
 * Modules find their files (Avro schemas, migrations, rules lexicons, scenarios) relative to
 * import.meta.url; inside a bundle that is the bundle's URL. Each source's import.meta.url becomes
 * its own file's URL, written relative to the bundle so the repository can move after the build.
 */
function ownImportMetaUrl(outDir: string): Plugin {
  return {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (args.path.includes(`${path.sep}node_modules${path.sep}`) || !text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
        const rel = path.relative(outDir, args.path).split(path.sep).join('/');
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
}

export async function buildWorkers(outDir: string): Promise<void> {
  const builtAt = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const entryPoints = Object.fromEntries(Object.entries({ ...WORKER_ENTRIES, ...MAIN_ENTRY }).map(([src, out]) => [out.replace(/\.mjs$/, ''), path.join(ROOT, src)]));
  const r = await build({
    entryPoints,
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [ownImportMetaUrl(outDir)],
  });
  const entries: Record<string, { out: string; inputs: string[] }> = {};
  for (const [outPath, meta] of Object.entries(r.metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const src = path.relative(ROOT, path.resolve(meta.entryPoint));
    // Inputs are relative to esbuild's working directory; the manifest names them from the root.
    const inputs = Object.keys(meta.inputs).map((i) => path.relative(ROOT, path.resolve(i)));
    entries[src] = { out: path.basename(outPath), inputs };
  }
  writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify({ root: ROOT, builtAt, entries }, null, 1));
}

/**
 * native/code-pages.c compiled to <outDir>/code-pages.node (pipelines/runtime/code-pages.ts): with the C
 * compiler (`cc`) and the headers of the Node that runs this (<prefix>/include/node, as Node's own
 * packages install them). Without them nothing is built and the service runs without it: the message
 * says why.
 */
export function buildNative(outDir: string): string {
  rmSync(outDir, { recursive: true, force: true });
  if (process.platform !== 'linux') return 'not on Linux';
  const include = path.join(path.dirname(path.dirname(process.execPath)), 'include', 'node');
  if (!existsSync(path.join(include, 'node_api.h'))) return `no Node headers at ${include}`;
  mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, 'code-pages.node');
  try {
    execFileSync('cc', ['-O2', '-shared', '-fPIC', '-Wall', '-I', include, '-o', out, path.join(ROOT, 'native', 'code-pages.c')], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    rmSync(outDir, { recursive: true, force: true });
    return `cc failed: ${String((e as { stderr?: Buffer }).stderr ?? e).trim().split('\n')[0]}`;
  }
  return `written to ${out}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: path.join(ROOT, '.build', 'workers') } } });
  await buildWorkers(path.resolve(values.out));
  console.log(`worker and main bundles written to ${values.out}`);
  console.log(`code-pages addon (native/code-pages.c): ${buildNative(path.join(ROOT, '.build', 'native'))}`);
}
