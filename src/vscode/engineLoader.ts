import type * as Engine from '../engine';

export type ScalpelEngine = typeof Engine;

let engine: ScalpelEngine | undefined;

/**
 * Loads dist/engine.js on first use. Activation never calls this: ts-morph and the tokenizer cost hundreds of
 * milliseconds to load, paid only when the user first asks Scalpel for something.
 */
export function loadEngine(): ScalpelEngine {
  // A literal require of a sibling bundle that esbuild leaves alone (it is marked external in scripts/build.mjs);
  // a dynamic import() would turn the bundle into ESM loading for no gain.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  engine ??= require('./engine.js') as ScalpelEngine;
  return engine;
}

/** Whether the engine has been loaded in this extension host (the activation test checks it has not). */
export function isEngineLoaded(): boolean {
  return engine !== undefined;
}
