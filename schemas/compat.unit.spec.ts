// Schema evolution guard: every schema in schemas/ must stay BACKWARD compatible (Confluent's
// default) with each earlier version, i.e. a consumer on the new schema reads records written with
// any earlier one. Earlier versions are the files kept in schemas/history/<name>.v<N>.avsc and the
// version committed at git HEAD (so an uncommitted breaking edit fails before it is committed).
// The check is avsc's resolver: Type(new).createResolver(Type(old)) throws when old data cannot be
// read. When you change a schema: keep it compatible (new fields need defaults), then copy it to
// schemas/history/ as the next version.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import avro from 'avsc';

const dir = path.dirname(fileURLToPath(import.meta.url));
const historyDir = path.join(dir, 'history');

/** Throws with avsc's reason when readerSchema cannot read data written with writerSchema. */
export function assertBackwardCompatible(readerSchema: unknown, writerSchema: unknown): void {
  const reader = avro.Type.forSchema(readerSchema as avro.Schema);
  const writer = avro.Type.forSchema(writerSchema as avro.Schema);
  reader.createResolver(writer);
}

function headVersion(file: string): unknown | null {
  try {
    const text = execFileSync('git', ['show', `HEAD:schemas/${file}`], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    return JSON.parse(text);
  } catch {
    return null; // new file, or no git here
  }
}

const current = readdirSync(dir).filter((f) => f.endsWith('.avsc')).sort();
const recorded = readdirSync(historyDir).filter((f) => f.endsWith('.avsc'));

describe('schemas stay backward compatible', () => {
  it('has schemas to check', () => {
    expect(current.length).toBeGreaterThan(0);
  });

  for (const file of current) {
    const base = file.slice(0, -'.avsc'.length);
    it(`${file} reads every earlier version`, () => {
      const schema = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as unknown;
      avro.Type.forSchema(schema as avro.Schema); // valid on its own
      const earlier = recorded
        .filter((h) => h.startsWith(`${base}.v`))
        .map((h) => ({ from: `history/${h}`, schema: JSON.parse(readFileSync(path.join(historyDir, h), 'utf8')) as unknown }));
      const head = headVersion(file);
      if (head !== null) earlier.push({ from: 'git HEAD', schema: head });
      expect(earlier.length, `${file} has no recorded version: copy it to schemas/history/${base}.v1.avsc`).toBeGreaterThan(0);
      for (const e of earlier) {
        try {
          assertBackwardCompatible(schema, e.schema);
        } catch (err) {
          throw new Error(`${file} is not backward compatible with ${e.from}: ${(err as Error).message}`, { cause: err });
        }
      }
    });
  }
});

describe('the compatibility check itself', () => {
  const v1 = { type: 'record', name: 'R', fields: [{ name: 'a', type: 'string' }] };
  it('accepts a new field with a default and a removed field', () => {
    expect(() => assertBackwardCompatible({ ...v1, fields: [...v1.fields, { name: 'b', type: ['null', 'string'], default: null }] }, v1)).not.toThrow();
    expect(() => assertBackwardCompatible({ ...v1, fields: [] }, v1)).not.toThrow();
  });
  it('rejects a new field without a default and an incompatible type change', () => {
    expect(() => assertBackwardCompatible({ ...v1, fields: [...v1.fields, { name: 'b', type: 'string' }] }, v1)).toThrow();
    expect(() => assertBackwardCompatible({ ...v1, fields: [{ name: 'a', type: 'int' }] }, v1)).toThrow();
  });
});
