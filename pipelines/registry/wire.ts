// Confluent's wire format. In: a schema id and an Avro body. Out: the framed bytes, and back.
// Byte 0 is the magic byte 0, bytes 1-4 the schema id (big endian), the rest the Avro binary body.
import { WireFormatError } from './types.ts';

export const MAGIC_BYTE = 0;

export function encodeWire(id: number, body: Buffer): Buffer {
  const buf = Buffer.allocUnsafe(5 + body.length);
  buf[0] = MAGIC_BYTE;
  buf.writeUInt32BE(id, 1);
  body.copy(buf, 5);
  return buf;
}

export function decodeWire(buf: Buffer): { id: number; body: Buffer } {
  if (buf.length < 5) throw new WireFormatError(`not in the schema registry wire format: ${buf.length} bytes, at least 5 needed`);
  if (buf[0] !== MAGIC_BYTE) throw new WireFormatError(`not in the schema registry wire format: magic byte ${buf[0]}, expected 0`);
  return { id: buf.readUInt32BE(1), body: buf.subarray(5) };
}
