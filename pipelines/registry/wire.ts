// Confluent's wire format. In: a schema id and an Avro body. Out: the framed bytes, and back.
// Byte 0 is the magic byte 0, bytes 1-4 the schema id (big endian), the rest the Avro binary body.
import { WireFormatError } from './types.ts';

export const MAGIC_BYTE = 0;
/** Magic byte and schema id: where the Avro body starts. */
export const WIRE_HEADER_BYTES = 5;

/** Writes the magic byte and the schema id at pos (the body follows at pos + WIRE_HEADER_BYTES). */
export function writeWireHeader(buf: Buffer, pos: number, id: number): void {
  buf[pos] = MAGIC_BYTE;
  buf.writeUInt32BE(id, pos + 1);
}

export function encodeWire(id: number, body: Buffer): Buffer {
  const buf = Buffer.allocUnsafe(WIRE_HEADER_BYTES + body.length);
  writeWireHeader(buf, 0, id);
  body.copy(buf, WIRE_HEADER_BYTES);
  return buf;
}

/** The schema id of a framed record, after checking the frame (no view of the body is made). */
export function wireId(buf: Buffer): number {
  if (buf.length < WIRE_HEADER_BYTES) throw new WireFormatError(`not in the schema registry wire format: ${buf.length} bytes, at least 5 needed`);
  if (buf[0] !== MAGIC_BYTE) throw new WireFormatError(`not in the schema registry wire format: magic byte ${buf[0]}, expected 0`);
  return buf.readUInt32BE(1);
}

export function decodeWire(buf: Buffer): { id: number; body: Buffer } {
  return { id: wireId(buf), body: buf.subarray(WIRE_HEADER_BYTES) };
}
