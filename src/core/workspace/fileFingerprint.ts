import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';

/**
 * What a file was when Scalpel read it: the baseline a later write is checked against (and that sync, issue 11,
 * keeps per file). Content decides: the hash and size say whether the file changed; the modification time is kept as
 * a cheap hint for callers that poll, never as the verdict, because formatters touch files without changing them and
 * file systems store times coarser than a fast writer saves.
 */
export interface FileFingerprint {
  /** False for a file that did not exist when it was read (one the batch creates). */
  readonly exists: boolean;
  readonly size: number;
  /** 0 for a missing file. */
  readonly mtimeMs: number;
  /** Hex SHA-256 of the bytes; '' for a missing file. */
  readonly sha256: string;
}

export const MISSING_FILE: FileFingerprint = Object.freeze({ exists: false, size: 0, mtimeMs: 0, sha256: '' });

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function fingerprintOf(bytes: Uint8Array, stat?: Pick<Stats, 'mtimeMs'>): FileFingerprint {
  return { exists: true, size: bytes.byteLength, mtimeMs: stat?.mtimeMs ?? 0, sha256: sha256Of(bytes) };
}

/** The fingerprint of a text as Scalpel would write it (UTF-8), for callers that kept only the text. */
export function fingerprintOfText(text: string | undefined): FileFingerprint {
  return text === undefined ? MISSING_FILE : fingerprintOf(Buffer.from(text, 'utf8'));
}

/** True when both describe the same content (or both a missing file); modification times are not compared. */
export function sameContent(a: FileFingerprint, b: FileFingerprint): boolean {
  if (!a.exists || !b.exists) return a.exists === b.exists;
  return a.size === b.size && a.sha256 === b.sha256;
}

/**
 * A file that kept changing while Scalpel waited to read it: another program is saving it. Reading it then would
 * take half a save for the whole file.
 */
export class FileBeingSavedError extends Error {
  constructor(
    readonly path: string,
    readonly waitedMs: number,
  ) {
    super(
      `${path}: is being saved by another program (it kept changing for ${(waitedMs / 1000).toFixed(1)} s); nothing was read or written; try again when the save is done`,
    );
    this.name = 'FileBeingSavedError';
  }
}
