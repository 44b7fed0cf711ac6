import { readFileSync } from 'node:fs';
import { countLines } from '../src/core/elements/outline';
import type { Corpus, CorpusFile } from '../test/support/corpus';

export interface CorpusText {
  readonly file: CorpusFile;
  readonly text: string;
  readonly lines: number;
}

/** Every corpus file with its text and line count. */
export function corpusTexts(corpus: Corpus): CorpusText[] {
  return corpus.corpusFiles().map((file) => {
    const text = readFileSync(file.absPath, 'utf8');
    return { file, text, lines: countLines(text) };
  });
}

/** The `count` longest corpus files, longest first. */
export function largestCorpusFiles(corpus: Corpus, count: number): CorpusText[] {
  return corpusTexts(corpus)
    .sort((a, b) => b.lines - a.lines)
    .slice(0, count);
}
