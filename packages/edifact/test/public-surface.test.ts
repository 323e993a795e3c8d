/**
 * The package's public surface (docs/decisions/0017-edifact-public-surface.md): what `@portal/edifact` and
 * `@portal/edifact/node` export, and that no exported type shows the engine's internals: the screen's
 * ScannedMessage, members documented `@internal`, or the hooks the parser and the parallel mode use (`screen`,
 * `screens`, `jump`, `resume`). Read from the TypeScript sources with the compiler's own checker.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const entries = {
  index: fileURLToPath(new URL('../src/index.ts', import.meta.url)),
  node: fileURLToPath(new URL('../src/node.ts', import.meta.url)),
};

/** The engine's hooks, functions the parser and the parallel mode call (`screens` is a list of functions). */
const HOOKS = new Set(['screen', 'jump', 'resume']);

/** Per entry: its export names, and what of the internals its exported types show. */
const inspect = () => {
  const program = ts.createProgram(Object.values(entries), {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const out: Record<string, { names: string[]; leaks: string[] }> = {};
  for (const [entry, file] of Object.entries(entries)) {
    const source = program.getSourceFile(file) as ts.SourceFile;
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source) as ts.Symbol);
    const leaks: string[] = [];
    for (const exported of exports) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const types: ts.Type[] = [];
      if (symbol.flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Interface)) {
        types.push(checker.getDeclaredTypeOfSymbol(symbol));
      }
      if (symbol.flags & ts.SymbolFlags.Value) types.push(checker.getTypeOfSymbol(symbol));
      for (const type of types) {
        const shown = [
          ...checker.getPropertiesOfType(type),
          ...type.getConstructSignatures().flatMap((s) => s.getParameters()),
          ...type.getCallSignatures().flatMap((s) => s.getParameters()),
        ];
        for (const property of shown) {
          const declaration = property.valueDeclaration ?? property.declarations?.[0];
          if (declaration === undefined) continue;
          const modifiers = ts.getCombinedModifierFlags(declaration);
          if (modifiers & ts.ModifierFlags.Private || property.name.startsWith('__#')) continue;
          const where = `${exported.name}.${property.name}`;
          const type = checker.getTypeOfSymbolAtLocation(property, declaration);
          const text = checker.typeToString(
            type,
            undefined,
            ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias,
          );
          if (text.includes('ScannedMessage') || (property.name === 'screens' && !ts.isParameter(declaration)))
            leaks.push(`${where}: ${text}`);
          if (ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'internal'))
            leaks.push(`${where} @internal`);
          // `ValidateOptions.screen`, the switch that turns the fast path off, is public; a function of that name is not.
          const callable = checker.getNonNullableType(type).getCallSignatures().length > 0;
          if (HOOKS.has(property.name) && callable) leaks.push(`${where} (an engine hook)`);
        }
      }
    }
    out[entry] = { names: exports.map((e) => e.name).sort(), leaks };
  }
  return out;
};

describe('the public surface', () => {
  const surface = inspect();

  it('shows nothing of the fast path or the engine hooks in an exported type', () => {
    expect(surface.index?.leaks).toEqual([]);
    expect(surface.node?.leaks).toEqual([]);
  });

  it('exports none of the internal modules’ names', () => {
    for (const name of [
      'ScannedMessage',
      'ScreenedMessage',
      'ParserCore',
      'TokenReader',
      'SegmentSplitter',
      'MessageScanner',
      'withScreen',
      'screenOf',
      'work',
      'validatePart',
      'partSummary',
      'messageReport',
    ]) {
      expect(surface.index?.names).not.toContain(name);
      expect(surface.node?.names).not.toContain(name);
    }
  });

  it('keeps the node entry a superset of the browser-safe one', () => {
    expect(surface.node?.names).toEqual(expect.arrayContaining(surface.index?.names ?? []));
  });
});
