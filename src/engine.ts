/**
 * The heavy half of Scalpel (ts-morph, the tokenizer and everything built on them), bundled on its own as
 * dist/engine.js so that the extension can require it on first use instead of during activation.
 */
export {};
