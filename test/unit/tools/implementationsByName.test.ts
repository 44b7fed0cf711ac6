import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { ToolEnv } from '../../../src/core/tools';
import { installHint, languageCorpusDir } from '../../support/languageCorpus';
import { call, tableRows, toolEnv } from './toolSupport';

// Issue 27: references with relation "implementations" outside TypeScript, on folders of the real projects of the
// language corpus: the types that name the interface, base class or trait in their own declaration, said to be found
// by name, with the files searched; Go's structural interfaces are refused with what to do instead.

/** Folders of the language corpus copied into one workspace, each under a short name. */
const FOLDERS: Record<string, string> = {
  java: 'java/react-native-0.72.17/ReactAndroid/src/main/java/com/facebook/react/bridge/queue',
  cs: 'csharp/react-native-windows-0.82.8/Microsoft.ReactNative.Managed',
  py: 'python/python3-requests-2.28.1+dfsg-1/usr/lib/python3/dist-packages/requests',
  rs: 'rust/librust-regex-syntax-dev-0.6.27-1/usr/share/cargo/registry/regex-syntax-0.6.27/src/ast',
  go: 'go/golang-gopkg-yaml.v3-dev-3.0.1-3/usr/share/gocode/src/gopkg.in/yaml.v3',
};

const NS = 'namespace[Microsoft.ReactNative.Managed]';

void describe('references: implementations by name in Java, C#, Python and Rust; refused in Go', () => {
  let env: ToolEnv;

  before(() => {
    const root = mkdtempSync(join(tmpdir(), 'scalpel-implementations-'));
    for (const [name, folder] of Object.entries(FOLDERS)) {
      const source = join(languageCorpusDir(), folder);
      assert.ok(existsSync(source), `${source} is missing. ${installHint(folder.split('/')[0] ?? name)}`);
      cpSync(source, join(root, name), { recursive: true });
    }
    env = toolEnv(root);
  });

  const implementations = async (path: string): Promise<{ text: string; rows: string[] }> => {
    const run = await call(env, 'references', { path, relation: 'implementations' });
    assert.equal(run.isError, false, run.text);
    return { text: run.text, rows: tableRows(run.text) };
  };

  void test('Java: the class that implements an interface, and its method for the interface method', async () => {
    const { text, rows } = await implementations('java/MessageQueueThread.java/interface[MessageQueueThread]');
    assert.match(
      text,
      /^implementations of java\/MessageQueueThread\.java\/interface\[MessageQueueThread\], by name: 1 in 1 files \(the Java types whose extends\/implements name MessageQueueThread, in the \d+ Java files that mention it\)$/m,
    );
    assert.deepEqual(rows, [
      '24-238 class[MessageQueueThreadImpl] @DoNotStrip public class MessageQueueThreadImpl implements MessageQueueThread',
    ]);
    assert.match(text, /^by name: Java has no compiler lookup here, so a type naming another MessageQueueThread/m);
    assert.match(text, /^searched: java\/MessageQueueThread\.java, java\/MessageQueueThreadImpl\.java, /m);
    const method = await implementations(
      'java/MessageQueueThread.java/interface[MessageQueueThread]/method[runOnQueue]',
    );
    assert.deepEqual(method.rows, [
      '52-69 class[MessageQueueThreadImpl]/method[runOnQueue] @DoNotStrip @Override public boolean runOnQueue(Runnable runnable)',
    ]);
  });

  void test('C#: the types whose base list names a generic interface, and their members', async () => {
    const { text, rows } = await implementations(`cs/IReactPromise.cs/${NS}/interface[IReactPromise]`);
    assert.match(text, /by name: 1 in 1 files \(the C# types whose base list names IReactPromise, in the 3 C# files/);
    assert.deepEqual(rows, [`19-103 ${NS}/class[ReactPromise]#1 public class ReactPromise<T> : IReactPromise<T>`]);
    const second = await implementations(`cs/IJSValueTreeReader.cs/${NS}/interface[IJSValueTreeReader]`);
    assert.deepEqual(second.rows, [
      `8-172 ${NS}/class[JSValueTreeReader] public class JSValueTreeReader : IJSValueReader, IJSValueTreeReader`,
    ]);
    const member = await implementations(`cs/IReactPromise.cs/${NS}/interface[IReactPromise]/method[Resolve]`);
    assert.deepEqual(member.rows, [`38-61 ${NS}/class[ReactPromise]#1/method[Resolve] public void Resolve(T value)`]);
  });

  void test('Python: the direct subclasses only, and an overriding method', async () => {
    const { text, rows } = await implementations('py/auth.py/class[AuthBase]');
    // HTTPProxyAuth extends HTTPBasicAuth: a subclass of a subclass, not named, as the note says.
    assert.deepEqual(rows, [
      '76-96 class[HTTPBasicAuth] class HTTPBasicAuth(AuthBase)',
      '107-315 class[HTTPDigestAuth] class HTTPDigestAuth(AuthBase)',
    ]);
    assert.match(text, /only the types that name it themselves \(ask again for each to go further down\)/);
    const send = await implementations('py/adapters.py/class[BaseAdapter]/method[send]');
    assert.equal(send.rows.length, 1);
    assert.match(send.rows[0] ?? '', /^436-584 class\[HTTPAdapter\]\/method\[send\] def send\(/);
  });

  void test('Rust: the impl blocks of a trait, a qualified one included, and their methods', async () => {
    const { text, rows } = await implementations('rs/visitor.rs/trait[Visitor]');
    assert.match(
      text,
      /by name: 2 in 2 files \(the Rust impl blocks of Visitor \(impl Visitor for …\), in the 4 Rust files/,
    );
    assert.deepEqual(rows, [
      `2170-2277 "impl[ast::Visitor for NestLimiter]" impl<'p, 's, P: Borrow<Parser>> ast::Visitor for NestLimiter<'p, 's, P>`,
      '69-153 "impl[Visitor for Writer]" impl<W: fmt::Write> Visitor for Writer<W>',
    ]);
    const finish = await implementations('rs/visitor.rs/trait[Visitor]/method[finish]');
    assert.deepEqual(finish.rows, [
      '2174-2176 "impl[ast::Visitor for NestLimiter]/method[finish]" fn finish(self) -> Result<()>',
      '73-75 "impl[Visitor for Writer]/method[finish]" fn finish(self) -> fmt::Result',
    ]);
  });

  void test('Go: refused, since no declaration names the interface, with what to do instead', async () => {
    const run = await call(env, 'references', { path: 'go/yaml.go/type[Marshaler]', relation: 'implementations' });
    assert.equal(run.isError, true);
    assert.match(run.text, /a Go type implements an interface by having its methods, without naming it anywhere/);
    assert.match(run.text, /find_symbols \(name: MarshalYAML\), or ask gopls/);
  });

  void test('an element that is no interface, class or trait is refused with the kinds that are', async () => {
    const run = await call(env, 'references', { path: 'rs/print.rs/struct[Writer]', relation: 'implementations' });
    assert.equal(run.isError, true);
    assert.match(run.text, /is a struct; implementations are found of a trait or a member of one/);
  });
});
