import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyFails, applyOk, failure, lines } from './applyHarness';

const FILE = 'src/app.ts';
const app = lines(
  '/** App entry. */',
  '',
  "import { b, d } from './letters';",
  "import type { Props } from './types';",
  "import React from 'react';",
  "import * as path from 'node:path';",
  'import {',
  '  alpha,',
  '  beta,',
  "} from './greek';",
  '',
  'export const x = 1;',
);

function add(content: string, path = FILE) {
  return { type: 'ADD_IMPORT' as const, path, content };
}

function remove(content: string, path = FILE) {
  return { type: 'REMOVE_IMPORT' as const, path, content };
}

function edited(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `the text holds ${JSON.stringify(from)} exactly once`);
  return text.replace(from, to);
}

void describe('ADD_IMPORT', () => {
  void test('named bindings merge into the import of the same module, in its order, without duplicates', () => {
    const { after } = applyOk({ [FILE]: app }, [add("import { c, b } from './letters';")]);
    assert.equal(after(FILE), edited(app, "import { b, d } from './letters';", "import { b, c, d } from './letters';"));
    const unsorted = lines("import { z, a } from './m';", 'f(z, a);');
    assert.equal(
      applyOk({ [FILE]: unsorted }, [add("import { q } from './m';")]).after(FILE),
      lines("import { z, a, q } from './m';", 'f(z, a);'),
    );
  });

  void test('an import that writes out the whole list, old bindings and new, gets the order it is written in', () => {
    const { after } = applyOk({ [FILE]: app }, [add("import { b, d, a } from './letters';")]);
    assert.equal(after(FILE), edited(app, "import { b, d } from './letters';", "import { b, d, a } from './letters';"));
    const reordered = applyOk({ [FILE]: app }, [add("import { d, a, b } from './letters';")]);
    assert.equal(
      reordered.after(FILE),
      edited(app, "import { b, d } from './letters';", "import { d, a, b } from './letters';"),
    );
    const multiLine = applyOk({ [FILE]: app }, [add("import { alpha, gamma, beta } from './greek';")]);
    assert.equal(multiLine.after(FILE), edited(app, '  alpha,\n  beta,\n}', '  alpha,\n  gamma,\n  beta,\n}'));
  });

  void test('a multi-line import gets the new binding on its own line', () => {
    const { after } = applyOk({ [FILE]: app }, [add("import { gamma } from './greek';")]);
    assert.equal(after(FILE), edited(app, '  alpha,\n  beta,\n}', '  alpha,\n  beta,\n  gamma,\n}'));
  });

  void test('an import of everything already imported changes nothing and says so', () => {
    const { result } = applyOk({ [FILE]: app }, [
      add("import { b } from './letters';"),
      add("import type { b } from './letters';"),
    ]);
    assert.deepEqual(result.changes, []);
    assert.match(result.results[0]?.message ?? '', /already imported/);
  });

  void test('`import type` stays apart from value imports; a type import merges into the type import', () => {
    const typeOnly = applyOk({ [FILE]: app }, [add("import type { Letter } from './letters';")]);
    assert.equal(
      typeOnly.after(FILE),
      edited(
        app,
        "import { b, d } from './letters';\n",
        "import { b, d } from './letters';\nimport type { Letter } from './letters';\n",
      ),
    );
    const merged = applyOk({ [FILE]: app }, [add("import type { State } from './types';")]);
    assert.equal(
      merged.after(FILE),
      edited(app, "import type { Props } from './types';", "import type { Props, State } from './types';"),
    );
  });

  void test('a type-only binding needed as a value moves to a value import', () => {
    const { after } = applyOk({ [FILE]: app }, [add("import { Props } from './types';")]);
    assert.equal(
      after(FILE),
      edited(app, "import type { Props } from './types';\n", "import { Props } from './types';\n"),
    );
    const inline = lines("import { a, type T } from './m';");
    assert.equal(
      applyOk({ [FILE]: inline }, [add("import { T } from './m';")]).after(FILE),
      lines("import { a, T } from './m';"),
    );
  });

  void test('default and named bindings combine', () => {
    const named = applyOk({ [FILE]: app }, [add("import { useState } from 'react';")]);
    assert.equal(
      named.after(FILE),
      edited(app, "import React from 'react';", "import React, { useState } from 'react';"),
    );
    const withDefault = applyOk({ [FILE]: app }, [add("import letters from './letters';")]);
    assert.equal(
      withDefault.after(FILE),
      edited(app, "import { b, d } from './letters';", "import letters, { b, d } from './letters';"),
    );
  });

  void test("a new module goes after the last import, in the file's quote and semicolon style as written", () => {
    const { after } = applyOk({ [FILE]: app }, [add("import { z } from 'zod'"), add("import './polyfill';")]);
    assert.equal(
      after(FILE),
      edited(app, "} from './greek';\n", "} from './greek';\nimport { z } from 'zod';\nimport './polyfill';\n"),
    );
  });

  void test('a file without imports gets the import at the top, after a shebang, directives and a header comment, then a blank line', () => {
    const bare = lines(
      '#!/usr/bin/env node',
      "'use strict';",
      '/* Licence. */',
      '',
      '/** Runs. */',
      'export function run(): void {}',
    );
    const { after } = applyOk({ [FILE]: bare }, [add("import { readFileSync } from 'node:fs';")]);
    assert.equal(
      after(FILE),
      lines(
        '#!/usr/bin/env node',
        "'use strict';",
        '/* Licence. */',
        '',
        "import { readFileSync } from 'node:fs';",
        '',
        '/** Runs. */',
        'export function run(): void {}',
      ),
    );
    const plain = applyOk({ [FILE]: 'export const a = 1;\n' }, [add("import { b } from './b';")]);
    assert.equal(plain.after(FILE), "import { b } from './b';\n\nexport const a = 1;\n");
  });

  void test('several ADD_IMPORTs of one module compose', () => {
    const { after } = applyOk({ [FILE]: app }, [
      add("import { e } from './letters';"),
      add("import { a } from './letters';"),
    ]);
    assert.equal(
      after(FILE),
      edited(app, "import { b, d } from './letters';", "import { a, b, d, e } from './letters';"),
    );
  });

  void test('a name already imported from another module is refused', () => {
    const result = applyFails({ [FILE]: app }, [add("import { alpha } from './other';")]);
    assert.match(failure(result, 0).message ?? '', /"alpha" is already imported from '\.\/greek'/);
  });

  void test('a name whose import the batch deletes first may be imported from another module', () => {
    const { after } = applyOk({ [FILE]: app }, [
      { type: 'DELETE_ELEMENT', path: `${FILE}/import[react]` },
      add("import { React } from './letters';"),
    ]);
    assert.equal(
      after(FILE),
      edited(
        edited(app, "import { b, d } from './letters';", "import { b, d, React } from './letters';"),
        "import React from 'react';\n",
        '',
      ),
    );
    // Deleted after the import that needs its name: the name is still taken when the ADD_IMPORT runs.
    const reversed = applyFails({ [FILE]: app }, [
      add("import { React } from './letters';"),
      { type: 'DELETE_ELEMENT', path: `${FILE}/import[react]` },
    ]);
    assert.match(failure(reversed, 0).message ?? '', /"React" is already imported from 'react'/);
  });

  void test('content that is not an import is refused', () => {
    const result = applyFails({ [FILE]: app }, [add('export const y = 2;')]);
    assert.match(failure(result, 0).message ?? '', /is not an import declaration/);
  });
});

void describe('REMOVE_IMPORT', () => {
  void test('removes one named binding', () => {
    const { after } = applyOk({ [FILE]: app }, [remove("import { d } from './letters';")]);
    assert.equal(after(FILE), edited(app, "import { b, d } from './letters';", "import { b } from './letters';"));
    const multi = applyOk({ [FILE]: app }, [remove("import { alpha } from './greek';")]);
    assert.equal(multi.after(FILE), edited(app, '  alpha,\n  beta,\n}', '  beta,\n}'));
  });

  void test('removing the last binding removes the declaration', () => {
    const { after } = applyOk({ [FILE]: app }, [remove("import type { Props } from './types';")]);
    assert.equal(after(FILE), edited(app, "import type { Props } from './types';\n", ''));
  });

  void test('the module alone, or an import[...] path, removes every declaration of that module', () => {
    for (const operation of [remove("'./greek'"), remove('./greek'), remove('', `${FILE}/import[./greek]`)]) {
      const { after } = applyOk({ [FILE]: app }, [operation]);
      assert.equal(after(FILE), edited(app, "import {\n  alpha,\n  beta,\n} from './greek';\n", ''));
    }
  });

  void test('default and namespace bindings', () => {
    const both = lines("import React, { useState } from 'react';", 'use(React, useState);');
    assert.equal(
      applyOk({ [FILE]: both }, [remove("import React from 'react';")]).after(FILE),
      lines("import { useState } from 'react';", 'use(React, useState);'),
    );
    assert.equal(
      applyOk({ [FILE]: both }, [remove("import { useState } from 'react';")]).after(FILE),
      lines("import React from 'react';", 'use(React, useState);'),
    );
    const { after } = applyOk({ [FILE]: app }, [remove("import * as path from 'node:path';")]);
    assert.equal(after(FILE), edited(app, "import * as path from 'node:path';\n", ''));
  });

  void test('removing the only import leaves no blank line at the top', () => {
    const only = lines("import { a } from './a';", '', 'export const b = a;');
    assert.equal(
      applyOk({ [FILE]: only }, [remove("import { a } from './a';")]).after(FILE),
      lines('export const b = a;'),
    );
  });

  void test('a binding that is not imported, and a module that is not imported, are refused with what is there', () => {
    const binding = applyFails({ [FILE]: app }, [remove("import { q } from './letters';")]);
    assert.match(failure(binding, 0).message ?? '', /"q" is not imported from '\.\/letters'/);
    assert.match(failure(binding, 0).hint ?? '', /"b", "d"/);
    const module = applyFails({ [FILE]: app }, [remove("'./nowhere'")]);
    assert.match(failure(module, 0).message ?? '', /has no import of '\.\/nowhere'/);
    assert.ok(failure(module, 0).suggestions?.includes(`${FILE}/import[./letters]`));
  });

  void test('ADD_IMPORT and REMOVE_IMPORT of one module compose in order', () => {
    const { after } = applyOk({ [FILE]: app }, [
      remove("import { d } from './letters';"),
      add("import { e } from './letters';"),
    ]);
    assert.equal(after(FILE), edited(app, "import { b, d } from './letters';", "import { b, e } from './letters';"));
  });

  void test('an element operation on an import that an import operation also changes is refused', () => {
    const result = applyFails({ [FILE]: app }, [
      add("import { e } from './letters';"),
      { type: 'DELETE_ELEMENT', path: `${FILE}/import[./letters]` },
    ]);
    assert.match(failure(result, 1).message ?? '', /import declaration that operation #1 .* already changes/);
  });
});

void describe('imports placed by CREATE_ELEMENT beside another import', () => {
  const create = (kind: 'BEFORE' | 'AFTER', sibling: string, content: string) => ({
    type: 'CREATE_ELEMENT' as const,
    path: FILE,
    position: { kind, sibling },
    content,
  });

  void test('an import goes after, or before, the import it names, not after the last one', () => {
    const after = applyOk({ [FILE]: app }, [create('AFTER', 'import[./letters]', "import { log } from './log';")]);
    assert.equal(
      after.after(FILE),
      edited(
        app,
        "import { b, d } from './letters';\n",
        "import { b, d } from './letters';\nimport { log } from './log';\n",
      ),
    );
    const before = applyOk({ [FILE]: app }, [create('BEFORE', 'import[./letters]', "import { log } from './log';")]);
    assert.equal(
      before.after(FILE),
      edited(
        app,
        "import { b, d } from './letters';\n",
        "import { log } from './log';\nimport { b, d } from './letters';\n",
      ),
    );
  });

  void test('an import placed beside the second of two imports of one module goes beside that one', () => {
    const text = lines(
      "import * as core from './core';",
      "import { util } from './core';",
      '',
      "import * as checks from './checks';",
      '',
      'core;',
    );
    const after = (sibling: string): string =>
      applyOk({ [FILE]: text }, [create('AFTER', sibling, "import * as extra from './extra';")]).after(FILE);
    assert.equal(
      after('import[./core]#2'),
      text.replace(
        "import { util } from './core';\n",
        "import { util } from './core';\nimport * as extra from './extra';\n",
      ),
    );
    assert.equal(
      after('import[./core]#1'),
      text.replace(
        "import * as core from './core';\n",
        "import * as core from './core';\nimport * as extra from './extra';\n",
      ),
    );
  });

  void test('two imports placed one after the other keep their order', () => {
    const { after } = applyOk({ [FILE]: app }, [
      create('AFTER', 'import[react]', "import { log } from './log';"),
      create('AFTER', 'import[./log]', "import { trace } from './trace';"),
    ]);
    assert.equal(
      after(FILE),
      edited(
        app,
        "import React from 'react';\n",
        "import React from 'react';\nimport { log } from './log';\nimport { trace } from './trace';\n",
      ),
    );
  });

  void test('an import moved (deleted, then created elsewhere) is not merged into itself', () => {
    const { after } = applyOk({ [FILE]: app }, [
      { type: 'DELETE_ELEMENT', path: `${FILE}/import[node:path]` },
      create('BEFORE', 'import[./letters]', "import * as path from 'node:path';"),
    ]);
    const moved = edited(app, "import * as path from 'node:path';\n", '');
    assert.equal(
      after(FILE),
      edited(
        moved,
        "import { b, d } from './letters';\n",
        "import * as path from 'node:path';\nimport { b, d } from './letters';\n",
      ),
    );
  });

  void test('a value import of a module imported only as `import type` goes where it is placed', () => {
    const placed = applyOk({ [FILE]: app }, [
      create('BEFORE', 'import[./letters]', "import { makeProps } from './types';"),
    ]);
    assert.equal(
      placed.after(FILE),
      edited(
        app,
        "import { b, d } from './letters';\n",
        "import { makeProps } from './types';\nimport { b, d } from './letters';\n",
      ),
    );
    // A name the type import holds is needed as a value: that import changes, nothing is added.
    const needed = applyOk({ [FILE]: app }, [create('AFTER', 'import[react]', "import { Props } from './types';")]);
    assert.equal(
      needed.after(FILE),
      edited(app, "import type { Props } from './types';\n", "import { Props } from './types';\n"),
    );
  });

  void test('in a file without imports, an import placed BEFORE the first code goes right there, flush', () => {
    const types = lines('type Handle = number;', 'type Clear = (handle: Handle) => void;');
    const placed = applyOk({ [FILE]: types }, [
      create('BEFORE', 'type[Handle]', "import type { Timer } from './timer';"),
    ]);
    assert.equal(placed.after(FILE), `import type { Timer } from './timer';\n${types}`);
    // Before later code it would be an import among the code: refused as in any CREATE content.
    const later = applyFails({ [FILE]: types }, [
      create('BEFORE', 'type[Clear]', "import type { Timer } from './timer';"),
    ]);
    assert.match(failure(later, 0).message ?? '', /holds an import declaration/);
  });

  void test('a placed import whose name is already imported from elsewhere fails like ADD_IMPORT', () => {
    const result = applyFails({ [FILE]: app }, [create('AFTER', 'import[react]', "import { b } from './other';")]);
    assert.match(failure(result, 0).message ?? '', /"b" is already imported from '.\/letters'/);
  });
});
