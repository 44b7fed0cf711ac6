/**
 * Which Python files can get new errors when some modules change: the files that import them, directly or through a
 * package that re-exports them (`pkg/__init__.py` doing `from .helpers import greet`, then `from pkg import greet`).
 * Found from the import statements' text, matched by module name from any source root: a file whose module path ends
 * with the dotted name an import writes is taken as its target. Over-matching only checks a file more; the checker
 * (pyright) decides what each import resolves to.
 */

export interface PythonImporters {
  /** Importers, nearest first (direct importers, then importers of re-exporting packages). */
  readonly files: readonly string[];
  /** How many more there were beyond the limit. */
  readonly omitted: number;
}

/** `pkg/sub/mod.py` → `pkg.sub.mod`; `pkg/__init__.py` → `pkg`. */
export function moduleNameOf(file: string): string {
  return file
    .replace(/\.pyi?$/, '')
    .replace(/(^|\/)__init__$/, '')
    .split('/')
    .filter((part) => part !== '')
    .join('.');
}

/** The dotted modules a file's import statements name, relative ones resolved against the file's package. */
export function importedModules(file: string, text: string): string[] {
  const modules: string[] = [];
  const own = moduleNameOf(file);
  const isPackage = /(^|\/)__init__\.pyi?$/.test(file);
  const packageParts = own === '' ? [] : own.split('.').slice(0, isPackage ? undefined : -1);
  const absolute = (spec: string): string => {
    const dots = /^\.*/.exec(spec)?.[0].length ?? 0;
    if (dots === 0) return spec;
    const base = packageParts.slice(0, Math.max(0, packageParts.length - (dots - 1)));
    const rest = spec.slice(dots);
    return [...base, ...(rest === '' ? [] : [rest])].join('.');
  };
  // Statements joined across parentheses and backslash continuations, comments dropped.
  const source = text.replace(/#[^\n]*/g, '').replace(/\\\r?\n/g, ' ');
  const fromPattern = /^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n;]*)/gm;
  for (const match of source.matchAll(fromPattern)) {
    const module = absolute(match[1] ?? '');
    if (module !== '') modules.push(module);
    // `from pkg import helpers` may import the module pkg.helpers.
    for (const name of (match[2] ?? '').replace(/[()]/g, ' ').split(',')) {
      const imported = name.trim().split(/\s+/)[0] ?? '';
      if (/^\w+$/.test(imported)) modules.push(module === '' ? imported : `${module}.${imported}`);
    }
  }
  const importPattern = /^[ \t]*import[ \t]+([^\n;]+)/gm;
  for (const match of source.matchAll(importPattern)) {
    for (const part of (match[1] ?? '').split(',')) {
      const name = part.trim().split(/\s+/)[0] ?? '';
      if (/^[\w.]+$/.test(name)) modules.push(name);
    }
  }
  return [...new Set(modules)];
}

/** Whether an import of `spec` can name the module of `file` (from any source root). */
function names(spec: string, module: string): boolean {
  return spec !== '' && module !== '' && (module === spec || module.endsWith(`.${spec}`));
}

/**
 * The files among `listing` that import `changed` (directly, or through a package's `__init__` that imports them), at
 * most `limit`; `textOf` reads a file (the batch's text where it has one).
 */
export function pythonImporters(
  changed: readonly string[],
  listing: readonly string[],
  textOf: (file: string) => string | undefined,
  limit: number,
): PythonImporters {
  const seen = new Set(changed);
  const found: string[] = [];
  let frontier = [...changed];
  const importsCache = new Map<string, string[]>();
  const importsOf = (file: string): string[] => {
    let modules = importsCache.get(file);
    if (modules === undefined) {
      modules = importedModules(file, textOf(file) ?? '');
      importsCache.set(file, modules);
    }
    return modules;
  };
  while (frontier.length > 0) {
    const modules = frontier.map(moduleNameOf).filter((m) => m !== '');
    const lastNames = new Set(modules.map((m) => m.slice(m.lastIndexOf('.') + 1)));
    const next: string[] = [];
    for (const file of listing) {
      if (seen.has(file)) continue;
      const text = textOf(file);
      // Cheap first: an importer writes the module's last name somewhere (or imports relatively from its package).
      if (text === undefined || !(text.includes('from .') || [...lastNames].some((name) => text.includes(name))))
        continue;
      if (!importsOf(file).some((spec) => modules.some((module) => names(spec, module)))) continue;
      seen.add(file);
      found.push(file);
      // A package that imports a changed module may re-export it: its importers can break too.
      if (/(^|\/)__init__\.pyi?$/.test(file)) next.push(file);
    }
    frontier = next;
  }
  return { files: found.slice(0, limit), omitted: Math.max(0, found.length - limit) };
}
