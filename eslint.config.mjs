// @ts-check
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', '.cache/**', 'node_modules/**', '**/fixtures/**', '*.vsix', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      // A switch over a union (operation types, element kinds, container flavors) names every member, so a new
      // operation kind or flavor is a compile-time list of the places to teach, not a silent fall-through.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // The core is pure: it never touches the VS Code API, so the CLI, the benchmarks and the tests can run it in
    // plain Node. The adapter layer under src/vscode/ converts at the edge.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/core/ must not depend on VS Code; put the adapter in src/vscode/.' }],
          patterns: [
            {
              group: ['**/vscode/**', '../vscode/*', '../../vscode/*'],
              message: 'src/core/ must not import the VS Code adapter layer.',
            },
          ],
        },
      ],
    },
  },
  {
    // TypeScript is one language behind the seam (src/core/language/languageSupport.ts): its parser stays in its
    // folder, and the rest of the engine asks languageFor(path), so a second language needs no edit there.
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts', 'src/engine.ts'],
    // The agent tools' code graph is the TypeScript language service until the shared graph of #18 replaces it.
    ignores: ['src/core/language/typescript/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'ts-morph',
              message:
                'the TypeScript parser belongs to src/core/language/typescript/; elsewhere use the language seam (languageFor(path)).',
            },
          ],
          patterns: [
            {
              group: ['**/language/typescript/**'],
              allowTypeImports: true,
              message: 'reach TypeScript through the language seam (src/core/language/languages.ts), not directly.',
            },
          ],
        },
      ],
    },
  },
  {
    // The extension layer loads at activation and must stay small: dist/extension.js holds only src/vscode/ and the
    // light modules below. The engine (ts-morph, the tokenizer and all of src/core built on them) is bundled apart as
    // dist/engine.js and required on first use through engineLoader.ts, so from src/core and the engine the
    // extension layer imports only types. test/unit/language/extensionBundle.test.ts checks the bundle itself.
    files: ['src/extension.ts', 'src/vscode/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'ts-morph',
              message: 'ts-morph is the engine: reach it through ctx.engine() (src/vscode/engineLoader.ts).',
            },
            { name: 'gpt-tokenizer', message: 'the tokenizer is the engine: reach it through ctx.engine().' },
          ],
          patterns: [
            {
              // Every module under core/ but the allow-list of light ones.
              regex: '(^|/)core/(?!llm/providerDefaults$|language/languageCatalog$|workspace/glob$|edit/changeLabel$|graph/semantics$)',
              allowTypeImports: true,
              message:
                'the extension layer imports only types from src/core (values come through ctx.engine()); light, dependency-free modules are allow-listed in eslint.config.mjs.',
            },
            {
              group: ['**/engine'],
              allowTypeImports: true,
              message:
                'the engine is loaded lazily: use ctx.engine() (src/vscode/engineLoader.ts), import only its types.',
            },
            { group: ['gpt-tokenizer/**', 'ts-morph/**'], message: 'the engine is loaded lazily: use ctx.engine().' },
          ],
        },
      ],
    },
  },
  {
    // The light modules the extension layer may load at activation import nothing but types, so nothing heavy can
    // come in behind them.
    files: [
      'src/core/llm/providerDefaults.ts',
      'src/core/language/languageCatalog.ts',
      'src/core/workspace/glob.ts',
      'src/core/edit/changeLabel.ts',
      'src/core/graph/semantics.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['*', '.*', '**'],
              allowTypeImports: true,
              message: 'a module the extension layer loads at activation imports only types (see eslint.config.mjs).',
            },
          ],
        },
      ],
    },
  },
  {
    // The CLI, the tests and the build scripts talk to a terminal.
    files: ['src/cli/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
