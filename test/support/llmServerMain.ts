// Runs the scripted LLM server as its own process, for end-to-end tests of programs that cannot share the test's
// event loop (a test that starts the server in-process must spawn the CLI asynchronously: spawnSync would block the
// server it waits on).
//
//   node out/test/support/llmServerMain.js <script.json> [--requests <file.json>] [--ttl-seconds <n>]
//
// The script is an array of steps, or `{ "steps": [...], "models": [...] }`, steps as built by `scripted` in
// llmServer.ts (plain JSON). The first line on stdout is JSON: `{"url", "openaiBaseUrl", "anthropicBaseUrl",
// "port"}`. With --requests, every received request is written to that file (a JSON array) as soon as it is
// answered. The process ends on SIGTERM or SIGINT, and by itself after --ttl-seconds (default 600) so a test that
// forgets it leaves nothing behind.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { startScriptedLlmServer, type RecordedRequest, type ScriptedStep } from './llmServer';

interface ScriptFile {
  readonly steps?: ScriptedStep[];
  readonly models?: string[];
}

function argument(args: readonly string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const scriptPath = args[0];
  if (scriptPath === undefined || scriptPath.startsWith('--')) {
    // `node --test <dir>` runs every file under a test/ folder; loaded that way this is not a test and must not fail.
    if (process.env['NODE_TEST_CONTEXT'] !== undefined) return;
    console.error('usage: llmServerMain <script.json> [--requests <file.json>] [--ttl-seconds <n>]');
    process.exit(2);
  }
  const parsed = JSON.parse(readFileSync(scriptPath, 'utf8')) as ScriptFile | ScriptedStep[];
  const script: ScriptFile = Array.isArray(parsed) ? { steps: parsed } : parsed;
  const requestsPath = argument(args, '--requests');
  const ttlSeconds = Number(argument(args, '--ttl-seconds') ?? 600);

  const seen: RecordedRequest[] = [];
  const persist = (request: RecordedRequest): void => {
    seen.push(request);
    if (requestsPath === undefined) return;
    // Written whole and renamed, so a reader never sees half a file.
    writeFileSync(`${requestsPath}.tmp`, JSON.stringify(seen, null, 2));
    renameSync(`${requestsPath}.tmp`, requestsPath);
  };

  const server = await startScriptedLlmServer({
    steps: script.steps ?? [],
    ...(script.models === undefined ? {} : { models: script.models }),
    onRequestDone: persist,
  });
  process.stdout.write(
    `${JSON.stringify({ url: server.url, openaiBaseUrl: server.openaiBaseUrl, anthropicBaseUrl: server.anthropicBaseUrl, port: server.port })}\n`,
  );

  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The listening server keeps the process alive; this timer only has to end it.
  setTimeout(stop, ttlSeconds * 1000).unref();
}

void main();
