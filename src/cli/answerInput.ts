import { closeSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_MAX_ANSWER_BYTES } from '../core/ops/format';
import { CliError } from './cliError';
import type { CliIo } from './command';

/**
 * The answer `scalpel apply` reads, from a file or standard input (`-`), never more than the answer limit: `apply
 * /dev/zero`, `yes | scalpel apply -` or a runaway generator is refused after 2 MB, not read until memory runs out.
 */
export async function readAnswerOrThrow(
  source: string,
  root: string,
  io: Pick<CliIo, 'readStdin'>,
  maxBytes: number = DEFAULT_MAX_ANSWER_BYTES,
): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = source === '-' ? await io.readStdin(maxBytes) : readFileUpTo(resolve(root, source), maxBytes);
  } catch (error) {
    throw new CliError(`${source}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (bytes.length > maxBytes) {
    throw new CliError(
      `${source === '-' ? 'standard input' : source}: the answer is over the limit of ${formatMegabytes(maxBytes)} for one answer; reading stopped there and nothing was applied (send a smaller change per answer)`,
    );
  }
  return bytes.toString('utf8');
}

/** At most `maxBytes` + 1 bytes of the file: a device or a pipe that never ends is not read further. */
function readFileUpTo(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      // No position: a pipe or a device reads in sequence.
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function formatMegabytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}
