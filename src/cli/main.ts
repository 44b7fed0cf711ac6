/**
 * The `scalpel` executable (bundled to dist/cli.js): adapts the real process (argv, streams, environment, SIGINT,
 * exit code) to `runCli`. Everything else lives in runCli.ts, which tests import without starting this adapter.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { isGraphWorkerData, serveGraphWorker } from '../core/tools/graph/graphWorker';
import type { CliIo } from './command';
import { cliVerifier } from './commands/mcp';
import { diskSnapshot } from './writeChanges';
import { runCli } from './runCli';

if (!isMainThread && parentPort !== null && isGraphWorkerData(workerData)) {
  // `scalpel mcp`'s code graph, in a thread of its own (src/core/tools/graph/graphWorker.ts).
  const { root } = workerData;
  serveGraphWorker(parentPort, workerData, { verify: cliVerifier(root), snapshot: () => diskSnapshot(root) });
} else {
  runProcess();
}

function runProcess(): void {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal,
    workerScript: __filename,
    readStdin: async (maxBytes) => {
      const chunks: Buffer[] = [];
      let length = 0;
      // Leaving the loop early destroys the stream: an endless producer (`yes | scalpel apply -`) is not read further.
      for await (const chunk of process.stdin) {
        chunks.push(chunk as Buffer);
        length += (chunk as Buffer).length;
        if (length > maxBytes) break;
      }
      return Buffer.concat(chunks, length).subarray(0, maxBytes + 1);
    },
  };
  void runCli(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
