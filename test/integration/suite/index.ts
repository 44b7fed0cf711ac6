// The entry VS Code's extension host loads for `--extensionTestsPath`: it runs every compiled
// `*.test.js` beside it (subfolders too) with mocha. Adding a test is adding a `*.test.ts` file here.
import Mocha from 'mocha';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { format, stripVTControlCharacters } from 'node:util';

/**
 * In code-server (scripts/vscode-host/) the extension host's console reaches the driver mixed into the workbench's
 * own log. The driver passes a mark in the environment; the reporter prefixes every line with it so the driver can
 * show the test output and keep the workbench's chatter out of it. (VS Code locks the console methods of the
 * extension host, so the reporter's own log function is the place to add it.) Colour codes go too: mocha's
 * pass/fail symbols carry their own, switched on by CI=true whatever the `color` option says.
 * Returns a function that undoes it.
 */
function markReporterOutput(mark: string): () => void {
  const reporterLog = Mocha.reporters.Base.consoleLog;
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) =>
    reporterLog(mark + stripVTControlCharacters(format(...args)));
  return () => {
    Mocha.reporters.Base.consoleLog = reporterLog;
  };
}

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    // The output ends up in a browser console and then a CI log, neither of which shows ANSI colours.
    color: false,
    // Opening files and activating extensions in a real host takes seconds, not milliseconds.
    timeout: 30_000,
  });
  // `npm run test:integration -- --grep <pattern>` arrives here through the test run's environment.
  const grep = process.env['SCALPEL_TEST_GREP'];
  if (grep) mocha.grep(new RegExp(grep));
  // test/integration/run.mjs runs the suites that need a profile of their own in a second host: the first skips them.
  if (grep && process.env['SCALPEL_TEST_GREP_INVERT'] === '1') mocha.invert();

  const testFiles = readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.js'))
    .sort();
  if (testFiles.length === 0)
    throw new Error(`no *.test.js files in ${__dirname}: was \`node scripts/build.mjs --tests\` run?`);
  for (const file of testFiles) mocha.addFile(join(__dirname, file));

  const outputMark = process.env['EXTENSION_HOST_OUTPUT_MARK'];
  const unmarkReporterOutput = outputMark ? markReporterOutput(outputMark) : () => {};
  try {
    const failures = await new Promise<number>((resolve) => mocha.run(resolve));
    if (failures > 0) throw new Error(`${failures} integration test${failures === 1 ? '' : 's'} failed`);
  } finally {
    unmarkReporterOutput();
  }
}
