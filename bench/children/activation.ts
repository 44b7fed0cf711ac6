import Module, { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createExtensionContext, createVscodeStub, vscodeExportNames } from '../vscodeStub';

/**
 * Run in a fresh process by the bench: loads extension.js and runs `activate` against the vscode stand-in
 * (`extension`), or only loads engine.js (`engine`), from the bundles folder given (the .vsix's own dist/, or the
 * repository's), and prints the timings as one JSON line.
 *   node out/bench/children/activation.js extension|engine <repo root> <bundles folder>
 */

const HEAVY_MODULE = /[\\/](engine\.js|typescript\.js|ts-morph[\\/].*|gpt-tokenizer[\\/].*)$/;

async function main(): Promise<void> {
  const [mode, root, dist] = process.argv.slice(2);
  if ((mode !== 'extension' && mode !== 'engine') || root === undefined || dist === undefined) {
    throw new Error('usage: activation.js extension|engine <repo root> <bundles folder>');
  }
  const load = createRequire(join(root, 'package.json'));
  if (mode === 'engine') {
    const started = performance.now();
    load(join(dist, 'engine.js'));
    const loaded = performance.now();
    print({ mode, requireMs: loaded - started, activateMs: 0, totalMs: loaded - started, sinceProcessStart: loaded });
    return;
  }

  const declarations = readFileSync(load.resolve('@types/vscode/index.d.ts'), 'utf8');
  const stub = createVscodeStub(vscodeExportNames(declarations));
  const moduleInternals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = moduleInternals._load;
  moduleInternals._load = function loadWithVscodeStub(this: unknown, request: string, ...rest: unknown[]): unknown {
    return request === 'vscode' ? stub.module : originalLoad.call(this, request, ...rest);
  };
  const packageJSON: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const { context, subscriptions } = createExtensionContext(stub.stubAt, packageJSON, root);

  // Promises activation starts and leaves running may fail against the stand-in; they are counted, not fatal.
  const asyncErrors: string[] = [];
  process.on('unhandledRejection', (reason) => {
    asyncErrors.push(reason instanceof Error ? reason.message : String(reason));
  });

  const started = performance.now();
  const extension = load(join(dist, 'extension.js')) as { activate(context: unknown): unknown };
  const loaded = performance.now();
  await extension.activate(context);
  const activated = performance.now();
  // Lets promises activation left running settle, so their failures are counted.
  await new Promise((resolve) => setTimeout(resolve, 50));

  print({
    mode,
    requireMs: loaded - started,
    activateMs: activated - loaded,
    totalMs: activated - started,
    sinceProcessStart: activated,
    subscriptions: subscriptions.length,
    registeredCommands: stub.calls
      .filter((c) => c.startsWith('vscode.commands.registerCommand '))
      .map((c) => c.split(' ')[1]),
    vscodeCalls: stub.calls.length,
    heavyModulesLoaded: Object.keys(load.cache).filter((path) => HEAVY_MODULE.test(path)),
    asyncErrors,
  });
}

function print(result: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
