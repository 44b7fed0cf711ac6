// Installs the real-code corpora of the languages beyond TypeScript (issue 13): pinned Debian packages that ship
// their sources (Python libraries, Go `golang-*-dev`, Rust `librust-*-dev`) and pinned npm releases that ship Java
// or C# sources, each language under .cache/lang-corpus/<language>/ (git-ignored). Only the language's source files
// are kept, at their paths inside the package. Run through `node scripts/corpus.mjs --languages[=go,rust]`.
// test/support/languageCorpus.ts reads the manifest written here (corpus.json in each language folder), so the
// pins live here only. Why these packages: docs/corpus.md.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

const MANIFEST_SCHEMA = 1;

/**
 * Debian packages are pinned to bookworm's version; a version Debian no longer serves fails the install with the
 * version asked for, rather than silently measuring other code. Every pin here is one that bookworm has shipped
 * unchanged since its release (no `+deb12uN` security updates, which replace the old version in the archive).
 * `roots` are folders inside the package; `skip` drops folders whose files are not meant to parse (Go `testdata`).
 */
export const LANGUAGE_CORPORA = [
  {
    language: 'python',
    extensions: ['.py'],
    sources: [
      {
        from: 'debian',
        name: 'python3-rich',
        version: '13.3.1-1',
        roots: ['usr/lib/python3/dist-packages/rich'],
        style: 'typed modern Python, dataclasses, protocols',
      },
      {
        from: 'debian',
        name: 'python3-click',
        version: '8.1.3-2',
        roots: ['usr/lib/python3/dist-packages/click'],
        style: 'decorators and classes',
      },
      {
        from: 'debian',
        name: 'python3-attr',
        version: '22.2.0-1',
        roots: ['usr/lib/python3/dist-packages/attr'],
        style: 'metaprogramming, nested functions',
      },
      {
        from: 'debian',
        name: 'python3-requests',
        version: '2.28.1+dfsg-1',
        roots: ['usr/lib/python3/dist-packages/requests'],
        style: 'classic library code',
      },
      {
        from: 'debian',
        name: 'python3-parso',
        version: '0.8.3-1',
        roots: ['usr/lib/python3/dist-packages/parso'],
        style: 'a parser: long classes',
      },
      {
        from: 'debian',
        name: 'python3-packaging',
        version: '23.0-1',
        roots: ['usr/lib/python3/dist-packages/packaging'],
        style: 'small typed modules',
      },
      {
        from: 'debian',
        name: 'python3-docutils',
        version: '0.19+dfsg-6',
        roots: ['usr/lib/python3/dist-packages/docutils'],
        style: 'long-lived classic Python: parsers, writers, many small classes',
      },
    ],
  },
  {
    language: 'go',
    extensions: ['.go'],
    sources: [
      {
        from: 'debian',
        name: 'golang-github-prometheus-client-golang-dev',
        version: '1.14.0-3',
        roots: ['usr/share/gocode/src'],
        style: 'interfaces, methods with receivers, tests',
      },
      {
        from: 'debian',
        name: 'golang-github-spf13-cobra-dev',
        version: '1.6.1-1',
        roots: ['usr/share/gocode/src'],
        style: 'a command-line framework, struct methods',
      },
      {
        from: 'debian',
        name: 'golang-github-google-go-cmp-dev',
        version: '0.5.9-1',
        roots: ['usr/share/gocode/src'],
        style: 'reflection-heavy generic code',
      },
      {
        from: 'debian',
        name: 'golang-gopkg-yaml.v3-dev',
        version: '3.0.1-3',
        roots: ['usr/share/gocode/src'],
        style: 'a port of C: long functions and const blocks',
      },
    ],
    skip: ['testdata'],
  },
  {
    language: 'rust',
    extensions: ['.rs'],
    sources: [
      {
        from: 'debian',
        name: 'librust-syn-dev',
        version: '1.0.107-1',
        roots: ['usr/share/cargo/registry'],
        style: 'macros, many impl blocks, cfg attributes',
      },
      {
        from: 'debian',
        name: 'librust-serde-dev',
        version: '1.0.152-2',
        roots: ['usr/share/cargo/registry'],
        style: 'traits, generics, macro_rules',
      },
      {
        from: 'debian',
        name: 'librust-regex-syntax-dev',
        version: '0.6.27-1',
        roots: ['usr/share/cargo/registry'],
        style: 'enums, long match-heavy functions',
      },
      {
        from: 'debian',
        name: 'librust-clap-dev',
        version: '4.0.32-1',
        roots: ['usr/share/cargo/registry'],
        style: 'builders, doc comments with examples',
      },
    ],
  },
  {
    language: 'java',
    extensions: ['.java'],
    sources: [
      {
        from: 'npm',
        name: 'react-native',
        version: '0.72.17',
        roots: ['ReactAndroid/src/main/java'],
        style: 'Android framework code: classes, interfaces, annotations, overloads',
      },
    ],
  },
  {
    language: 'csharp',
    extensions: ['.cs'],
    sources: [
      {
        from: 'npm',
        name: 'react-native-windows',
        version: '0.57.2',
        roots: ['ReactWindows', 'Yoga/csharp'],
        style: 'the C# implementation: classes, properties, attributes, async',
      },
      {
        from: 'npm',
        name: 'react-native-windows',
        version: '0.82.8',
        roots: ['Microsoft.ReactNative.Managed', 'Microsoft.ReactNative.Managed.CodeGen'],
        style: 'current managed bindings and a Roslyn code generator',
      },
    ],
  },
];

/** Folder of one source inside its language folder, e.g. `python3-rich-13.3.1-1`. */
function folderOf(source) {
  return `${source.name.replace(/^@/, '').replace('/', '-')}-${source.version}`.replace(/[^\w.+-]/g, '_');
}

function run(command, args, options = {}) {
  return spawnSync(command, args, { encoding: 'utf8', shell: process.platform === 'win32', ...options });
}

function fail(message) {
  console.error(`corpus: ${message}`);
  process.exit(1);
}

/** The pins a language folder was installed from, as its manifest records them. */
function manifestFor(corpus) {
  return {
    schema: MANIFEST_SCHEMA,
    language: corpus.language,
    extensions: corpus.extensions,
    sources: corpus.sources.map((source) => ({
      from: source.from,
      name: source.name,
      version: source.version,
      style: source.style,
      dir: folderOf(source),
    })),
  };
}

function isInstalled(languageDir, corpus) {
  try {
    const installed = readFileSync(join(languageDir, 'corpus.json'), 'utf8');
    return (
      installed === `${JSON.stringify(manifestFor(corpus), null, 2)}\n` &&
      corpus.sources.every((source) => existsSync(join(languageDir, folderOf(source))))
    );
  } catch {
    return false;
  }
}

let aptUpdated = false;

/** `apt-get download` needs no root; the package lists may be missing on a fresh machine, which `apt-get update` fixes. */
function downloadDeb(source, workDir) {
  const attempt = () => run('apt-get', ['download', `${source.name}=${source.version}`], { cwd: workDir });
  let result = attempt();
  if (result.error) fail(`could not start apt-get (${result.error.message}); the language corpora need Debian's apt.`);
  if (result.status !== 0 && !aptUpdated && process.getuid?.() === 0) {
    aptUpdated = true;
    console.log('corpus: apt-get download failed; refreshing the package lists (apt-get update) and trying again');
    run('apt-get', ['update'], { stdio: 'inherit' });
    result = attempt();
  }
  if (result.status !== 0) {
    fail(
      `apt-get download ${source.name}=${source.version} failed:\n${(result.stderr || result.stdout).trim()}\n` +
        'Run `apt-get update` (as root) if the package lists are old; a pinned version Debian no longer serves must be re-pinned in scripts/languageCorpus.mjs.',
    );
  }
  const deb = readdirSync(workDir).find((name) => name.endsWith('.deb'));
  if (deb === undefined) fail(`apt-get download ${source.name} wrote no .deb file`);
  const unpacked = join(workDir, 'unpacked');
  const extracted = run('dpkg-deb', ['-x', join(workDir, deb), unpacked]);
  if (extracted.status !== 0) fail(`dpkg-deb -x ${deb} failed: ${extracted.stderr || extracted.error?.message}`);
  return unpacked;
}

function downloadNpm(source, workDir) {
  const packed = run('npm', ['pack', `${source.name}@${source.version}`, '--pack-destination', workDir, '--silent'], {
    cwd: workDir,
  });
  if (packed.error) fail(`could not start npm (${packed.error.message}). Is npm on PATH?`);
  if (packed.status !== 0) fail(`npm pack ${source.name}@${source.version} failed:\n${packed.stderr.trim()}`);
  const tarball = readdirSync(workDir).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) fail(`npm pack ${source.name}@${source.version} wrote no tarball`);
  const unpacked = join(workDir, 'unpacked');
  mkdirSync(unpacked);
  const extracted = run('tar', ['-xzf', join(workDir, tarball), '-C', unpacked]);
  if (extracted.status !== 0) fail(`tar could not unpack ${tarball}: ${extracted.stderr || extracted.error?.message}`);
  // npm tarballs hold one top folder, `package/`.
  return join(unpacked, 'package');
}

/** Copies the language's source files under `root` into `target`, keeping their paths relative to `from`. */
function copySources(from, root, target, corpus) {
  let copied = 0;
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (stat === undefined) continue; // a dangling symlink
      if (stat.isDirectory()) {
        if (!(corpus.skip ?? []).includes(name)) walk(full);
      } else if (corpus.extensions.some((extension) => name.endsWith(extension))) {
        const destination = join(target, relative(from, full));
        mkdirSync(join(destination, '..'), { recursive: true });
        copyFileSync(full, destination);
        copied += 1;
      }
    }
  };
  if (!existsSync(root)) return 0;
  walk(root);
  return copied;
}

function installLanguage(languageDir, corpus) {
  rmSync(languageDir, { recursive: true, force: true });
  mkdirSync(languageDir, { recursive: true });
  for (const source of corpus.sources) {
    const workDir = mkdtempSync(join(tmpdir(), 'scalpel-lang-corpus-'));
    try {
      const unpacked = source.from === 'debian' ? downloadDeb(source, workDir) : downloadNpm(source, workDir);
      const target = join(languageDir, folderOf(source));
      let copied = 0;
      for (const root of source.roots) copied += copySources(unpacked, join(unpacked, root), target, corpus);
      if (copied === 0)
        fail(
          `${source.name}@${source.version} has no ${corpus.extensions.join(' ')} files under ${source.roots.join(', ')}`,
        );
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
  // Written last: a folder without its manifest is an interrupted install and is installed again.
  writeFileSync(join(languageDir, 'corpus.json'), `${JSON.stringify(manifestFor(corpus), null, 2)}\n`);
}

function countFiles(dir, extensions) {
  let files = 0;
  let long = 0;
  const walk = (current) => {
    for (const name of readdirSync(current)) {
      const full = join(current, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (extensions.some((extension) => name.endsWith(extension))) {
        files += 1;
        if (readFileSync(full, 'utf8').split('\n').length >= 100) long += 1;
      }
    }
  };
  walk(dir);
  return { files, long };
}

/**
 * `selected`: language ids, or undefined for all of them. `force` reinstalls. Returns nothing; exits the process
 * with status 1 and a reason when a pinned source cannot be installed.
 */
export function installLanguageCorpora(repoRoot, selected, force) {
  const unknown = (selected ?? []).filter((id) => !LANGUAGE_CORPORA.some((corpus) => corpus.language === id));
  if (unknown.length > 0) {
    fail(`no corpus for ${unknown.join(', ')}; known: ${LANGUAGE_CORPORA.map((c) => c.language).join(', ')}`);
  }
  const baseDir = join(repoRoot, '.cache', 'lang-corpus');
  for (const corpus of LANGUAGE_CORPORA.filter((c) => selected === undefined || selected.includes(c.language))) {
    const languageDir = join(baseDir, corpus.language);
    const shown = relative(repoRoot, languageDir).split(sep).join('/');
    if (!force && isInstalled(languageDir, corpus)) {
      console.log(`corpus: ${corpus.language} already present in ${shown}/`);
    } else {
      const started = Date.now();
      console.log(
        `corpus: installing ${corpus.language} (${corpus.sources.map((s) => `${s.name} ${s.version}`).join(', ')}) into ${shown}/`,
      );
      installLanguage(languageDir, corpus);
      console.log(`corpus: ${corpus.language} installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    for (const source of corpus.sources) {
      const { files, long } = countFiles(join(languageDir, folderOf(source)), corpus.extensions);
      console.log(`  ${source.name} ${source.version}: ${files} files, ${long} of them 100 lines or more`);
    }
  }
}
