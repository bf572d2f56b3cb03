// The benches' command-line options, read with node:util parseArgs. A bench declares each option by
// its default, whose type is the option's: a number (`--rounds 5`), a string (`--mode embedded`) or
// a boolean flag (`--heap`, false unless given). An option a bench does not declare is refused (a
// mistyped flag would otherwise run the bench on its defaults). A string or number option takes the
// next argument whatever it begins with (`--node-flags --no-single-threaded-gc`, `--nice -5`), as
// the benches have always read them; parseArgs alone would refuse a value beginning with a dash.
import { parseArgs } from 'node:util';

type Value = string | number | boolean;
type Read<T extends Record<string, Value>> = { [K in keyof T]: T[K] extends number ? number : T[K] extends boolean ? boolean : string };

/** The options of `argv` (the command line after the script), each given or its default; `positionals` when the bench takes any. */
export function benchArgs<T extends Record<string, Value>>(defaults: T, o: { positionals?: boolean; argv?: string[] } = {}): Read<T> & { positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; default: string | boolean }> = {};
  for (const [k, v] of Object.entries(defaults)) options[k] = typeof v === 'boolean' ? { type: 'boolean', default: v } : { type: 'string', default: String(v) };
  const argv = o.argv ?? process.argv.slice(2);
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && i + 1 < argv.length) args.push(`${a}=${argv[++i]!}`);
    else args.push(a);
  }
  const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: o.positionals ?? false });
  const out: Record<string, Value | string[]> = { positionals };
  for (const [k, v] of Object.entries(defaults)) out[k] = typeof v === 'number' ? Number(values[k]) : (values[k] as string | boolean);
  return out as Read<T> & { positionals: string[] };
}
