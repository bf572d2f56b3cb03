// What grew between two V8 heap snapshots of one isolate (bench/soak.ts --heap-snapshot-at-s writes
// them): by constructor, the count, self size and retained size in each and the difference; then, for
// the constructors that grew most, who holds the objects that are new in the second snapshot (V8 keeps
// an object's id across snapshots of one isolate, so an id above the first snapshot's largest is an
// object allocated since), as the chain of immediate dominators up to the root.
//
//   node --max-old-space-size=8192 --import tsx bench/heap-diff.ts <a.heapsnapshot> <b.heapsnapshot> [--top 25]
//   (one snapshot alone: its sizes by constructor and who holds everything)
//
// Retained sizes come from the dominator tree (Cooper, Harvey and Kennedy's iterative algorithm over
// the strong edges, as DevTools does); a constructor's retained size sums its objects that no other
// object of the same constructor dominates, so nested ones are not counted twice.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Graph {
  n: number;
  name: string[];
  id: Float64Array;
  self: Float64Array;
  retained: Float64Array;
  idom: Int32Array;
  /** The class of each node: an object's constructor name, else its V8 type in parentheses. */
  cls: string[];
  maxId: number;
}

function load(file: string): Graph {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const nf = s.snapshot.meta.node_fields;
  const ef = s.snapshot.meta.edge_fields;
  const nodeTypes = s.snapshot.meta.node_types[0];
  const edgeTypes = s.snapshot.meta.edge_types[0];
  const NF = nf.length;
  const EF = ef.length;
  const [iType, iName, iId, iSelf, iEdges] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
  const [eType, eTo] = ['type', 'to_node'].map((f) => ef.indexOf(f));
  const weak = edgeTypes.indexOf('weak');
  const shortcut = edgeTypes.indexOf('shortcut');
  const n = s.nodes.length / NF;
  const name: string[] = new Array<string>(n);
  const cls: string[] = new Array<string>(n);
  const id = new Float64Array(n);
  const self = new Float64Array(n);
  const firstEdge = new Int32Array(n + 1);
  let maxId = 0;
  for (let i = 0, e = 0; i < n; i++) {
    const type = nodeTypes[s.nodes[i * NF + iType]!]!;
    name[i] = s.strings[s.nodes[i * NF + iName]!]!;
    cls[i] = type === 'object' || type === 'native' ? name[i]! : `(${type})`;
    id[i] = s.nodes[i * NF + iId]!;
    self[i] = s.nodes[i * NF + iSelf]!;
    // V8's heap objects have odd ids, handed out in increasing order; embedder (native) nodes get
    // even ids from a hash, which say nothing about when they were made.
    if (id[i]! % 2 === 1 && id[i]! > maxId) maxId = id[i]!;
    firstEdge[i] = e;
    e += s.nodes[i * NF + iEdges]! * EF;
    firstEdge[i + 1] = e;
  }
  // Successors over strong edges (weak ones do not keep an object alive; shortcuts duplicate paths).
  const succ = (i: number, f: (j: number) => void) => {
    for (let e = firstEdge[i]!; e < firstEdge[i + 1]!; e += EF) {
      const t = s.edges[e + eType]!;
      if (t === weak || t === shortcut) continue;
      f(s.edges[e + eTo]! / NF);
    }
  };
  // Postorder from the root (node 0), iteratively.
  const order = new Int32Array(n).fill(-1);
  const post: number[] = [];
  const stack: number[] = [0];
  const edgeAt = new Int32Array(n);
  const seen = new Uint8Array(n);
  seen[0] = 1;
  edgeAt[0] = firstEdge[0]!;
  while (stack.length) {
    const v = stack[stack.length - 1]!;
    let pushed = false;
    while (edgeAt[v]! < firstEdge[v + 1]!) {
      const e = edgeAt[v]!;
      edgeAt[v] = e + EF;
      const t = s.edges[e + eType]!;
      if (t === weak || t === shortcut) continue;
      const w = s.edges[e + eTo]! / NF;
      if (!seen[w]) {
        seen[w] = 1;
        edgeAt[w] = firstEdge[w]!;
        stack.push(w);
        pushed = true;
        break;
      }
    }
    if (!pushed) {
      order[v] = post.length;
      post.push(v);
      stack.pop();
    }
  }
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (const v of post) succ(v, (w) => preds[w]!.push(v));
  const idom = new Int32Array(n).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (order[a]! < order[b]!) a = idom[a]!;
      while (order[b]! < order[a]!) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = post.length - 2; k >= 0; k--) {
      const v = post[k]!;
      let d = -1;
      for (const p of preds[v]!) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
      if (d !== -1 && idom[v] !== d) {
        idom[v] = d;
        changed = true;
      }
    }
  }
  const retained = new Float64Array(n);
  for (const v of post) retained[v]! += self[v]!;
  for (const v of post) if (v !== 0 && idom[v]! >= 0) retained[idom[v]!]! += retained[v]!;
  return { n, name, id, self, retained, idom, cls, maxId };
}

interface ClassRow {
  count: number;
  self: number;
  retained: number;
}

function byClass(g: Graph): Map<string, ClassRow> {
  const m = new Map<string, ClassRow>();
  for (let i = 0; i < g.n; i++) {
    if (g.idom[i] === -1) continue; // unreachable: garbage the snapshot still listed
    const c = g.cls[i]!;
    const row = m.get(c) ?? { count: 0, self: 0, retained: 0 };
    row.count++;
    row.self += g.self[i]!;
    // Retained once per outermost object of its class on the dominator chain.
    let d = g.idom[i]!;
    let nested = false;
    while (d !== 0 && d !== -1) {
      if (g.cls[d] === c) {
        nested = true;
        break;
      }
      d = g.idom[d]!;
    }
    if (!nested) row.retained += g.retained[i]!;
    m.set(c, row);
  }
  return m;
}

const CONTAINERS = new Set(['Map', 'Set', 'Array', 'Object', 'WeakMap', 'system / Context', 'Promise', 'ArrayBuffer', 'SharedArrayBuffer', 'Buffer', 'FastBuffer', 'Uint8Array', 'Uint16Array', 'Uint32Array', 'Float64Array', 'system / JSArrayBufferData']);
const MB = (b: number) => (b / 2 ** 20).toFixed(2);

function chain(g: Graph, i: number, depth = 14): string {
  const parts: string[] = [];
  for (let d = i, k = 0; d !== 0 && d !== -1 && k < depth; d = g.idom[d]!, k++) {
    const label = g.cls[d] === g.name[d] ? g.cls[d]! : `${g.cls[d]} ${JSON.stringify(g.name[d]!.slice(0, 40))}`;
    parts.push(`${label} [${MB(g.retained[d]!)} MB]`);
  }
  return parts.join(' <- ');
}

function main() {
  const ti = process.argv.indexOf('--top');
  const [fa, fb] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--top');
  const top = ti === -1 ? 25 : Number(process.argv[ti + 1]);
  if (!fa) throw new Error('usage: bench/heap-diff.ts <a.heapsnapshot> [<b.heapsnapshot>] [--top 25]');
  // One snapshot: against an empty heap, so the tables are its sizes and every object is "new".
  const b = load(fb ?? fa);
  const a: Graph = fb ? load(fa) : { n: 0, name: [], id: new Float64Array(0), self: new Float64Array(0), retained: new Float64Array(1), idom: new Int32Array(0), cls: [], maxId: 0 };
  const ca = byClass(a);
  const cb = byClass(b);
  const total = (g: Graph) => g.retained[0]!;
  console.log(`${fa}: ${a.n} nodes, ${MB(total(a))} MB reachable`);
  console.log(`${fb ?? fa}: ${b.n} nodes, ${MB(total(b))} MB reachable (${MB(total(b) - total(a))} MB more)`);
  const names = new Set([...ca.keys(), ...cb.keys()]);
  const rows = [...names].map((c) => {
    const x = ca.get(c) ?? { count: 0, self: 0, retained: 0 };
    const y = cb.get(c) ?? { count: 0, self: 0, retained: 0 };
    return { c, x, y, dSelf: y.self - x.self, dRet: y.retained - x.retained, dCount: y.count - x.count };
  });
  const print = (title: string, key: 'dSelf' | 'dRet') => {
    console.log(`\n${title}`);
    console.log('  d self MB | d retained MB | d count | count a -> b | self MB a -> b | retained MB a -> b | constructor');
    for (const r of [...rows].sort((p, q) => q[key] - p[key]).slice(0, top))
      console.log(
        `  ${MB(r.dSelf).padStart(9)} | ${MB(r.dRet).padStart(13)} | ${String(r.dCount).padStart(7)} | ${r.x.count} -> ${r.y.count} | ${MB(r.x.self)} -> ${MB(r.y.self)} | ${MB(r.x.retained)} -> ${MB(r.y.retained)} | ${r.c.slice(0, 80)}`,
      );
  };
  print('by self size grown', 'dSelf');
  print('by retained size grown', 'dRet');
  // Who holds what is new: the objects of the second snapshot allocated after the first, grouped by
  // their dominator chain's first three links, largest first.
  const holders = new Map<string, { bytes: number; count: number; sample: number }>();
  for (let i = 0; i < b.n; i++) {
    if (b.idom[i] === -1 || b.id[i]! % 2 === 0 || b.id[i]! <= a.maxId) continue;
    // The nearest dominator that is an instance of a named class (not V8's internal arrays and
    // strings, nor a plain container), with the containers between.
    const links: string[] = [];
    let d = b.idom[i]!;
    for (let k = 0; d !== 0 && d !== -1 && k < 40; d = b.idom[d]!, k++) {
      const c = b.cls[d]!;
      if (c.startsWith('(')) continue;
      links.push(c);
      if (!CONTAINERS.has(c)) break;
    }
    const key = `${b.cls[i]} <- ${links.join(' <- ')}`;
    const h = holders.get(key) ?? { bytes: 0, count: 0, sample: i };
    h.bytes += b.self[i]!;
    h.count++;
    holders.set(key, h);
  }
  console.log('\nnew objects (allocated after the first snapshot, alive in the second) by holder, self size:');
  for (const [k, h] of [...holders].sort((p, q) => q[1].bytes - p[1].bytes).slice(0, top)) {
    console.log(`  ${MB(h.bytes).padStart(8)} MB ${String(h.count).padStart(8)}  ${k.slice(0, 160)}`);
    console.log(`      e.g. ${chain(b, h.sample).slice(0, 600)}`);
  }
}

main();
