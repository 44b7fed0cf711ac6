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
          patterns: [{ group: ['**/vscode/**', '../vscode/*', '../../vscode/*'], message: 'src/core/ must not import the VS Code adapter layer.' }],
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
