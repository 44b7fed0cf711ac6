// The request the pipeline and edit-service suites both send: one method of the hard-cases fixture, and the answer
// that trims its input, through the real OpenAI client to the scripted model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { createProvider } from '../../../src/core/llm/createProvider';
import type { EditRequest } from '../../../src/core/llm/pipeline';
import type { ChatProvider } from '../../../src/core/llm/provider';
import type { ScriptedLlmServer } from '../../support/llmServer';

const fixtures = join(__dirname, '..', '..', '..', '..', 'test', 'unit', 'elements', 'fixtures');
export const HARD = readFileSync(join(fixtures, 'hardCases.ts'), 'utf8');
export const FILE = 'src/hard.ts';
export const VALIDATE = `${FILE}/class[UserService]/method[validate]`;
export const snapshot = { read: (path: string): string | undefined => (path === FILE ? HARD : undefined) };

export const NEW_VALIDATE = [
  `REPLACE_ELEMENT ${VALIDATE}`,
  '```ts',
  'validate(input: string): boolean {',
  '  return input.trim().length > 0 && path.isAbsolute(this.root);',
  '}',
  '```',
].join('\n');

/** The fixture after NEW_VALIDATE. */
export const VALIDATED = HARD.replace('return input.length > 0 &&', 'return input.trim().length > 0 &&');

export const INSTRUCTION = 'trim the input before checking its length';

export function scriptedOpenAi(server: ScriptedLlmServer): ChatProvider {
  return createProvider({
    provider: 'openai',
    baseUrl: server.openaiBaseUrl,
    apiKey: 'sk-test',
    model: 'gpt-4o-mini',
    retryDelayMs: 10,
  });
}

/** The pipeline request for INSTRUCTION on VALIDATE, through `provider`; `overrides` replace its fields. */
export function validateRequest(provider: ChatProvider, overrides: Partial<EditRequest> = {}): EditRequest {
  return {
    instruction: INSTRUCTION,
    files: [{ path: FILE, focus: [VALIDATE] }],
    snapshot,
    provider,
    counter: createTokenCounter(),
    ...overrides,
  };
}
