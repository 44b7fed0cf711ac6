import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/**
 * The files of a zip archive (a .vsix is one), read with zlib alone so the bench needs no unzip tool. Handles what
 * vsce writes: stored and deflated entries, no zip64, no encryption.
 */
export function readZipEntries(path: string): Map<string, Buffer> {
  const zip = readFileSync(path);
  const endOfDirectory = findEndOfCentralDirectory(zip);
  const entryCount = zip.readUInt16LE(endOfDirectory + 10);
  let at = zip.readUInt32LE(endOfDirectory + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < entryCount; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${path}: broken central directory`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) entries.set(name, Buffer.from(data));
    else if (method === 8) entries.set(name, inflateRawSync(data));
    else throw new Error(`${path}: ${name} uses compression method ${method}`);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEndOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === 0x06054b50) return at;
  }
  throw new Error('not a zip archive: no end of central directory');
}
