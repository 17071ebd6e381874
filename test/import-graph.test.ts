import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

// The server's files must import one another in one direction only (see docs/development.md,
// section Layers), so a reader can start at the bottom and never meet a
// file that needs something above it. Type-only imports count too: they are a dependency a
// reader has to follow just the same.

const ROOT = path.join(__dirname, '..');

/** Every .ts file of the server, as a path relative to the repository root with '/' separators. */
function serverFiles(): string[] {
  const files = ['server.ts'];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.ts')) files.push(relative);
    }
  };
  walk('lib');
  return files.sort();
}

/** The module specifiers a file names in its import and export-from statements. */
function importedSpecifiers(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      specifiers.push(statement.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(statement) &&
      ts.isExternalModuleReference(statement.moduleReference) &&
      ts.isStringLiteral(statement.moduleReference.expression)
    ) {
      specifiers.push(statement.moduleReference.expression.text);
    }
  }
  return specifiers;
}

/** File -> the server files it imports; packages and non-TypeScript files are left out. */
function importGraph(): Map<string, string[]> {
  const files = serverFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const specifier of importedSpecifiers(file)) {
      if (!specifier.startsWith('.')) continue;
      const base = path.posix.join(path.posix.dirname(file), specifier);
      const target = [`${base}.ts`, `${base}/index.ts`, base].find((candidate) => known.has(candidate));
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The strongly connected components with more than one file (or a file importing itself). */
function tangledComponents(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm; the graph has a few hundred nodes, so recursion depth is no concern.
  let nextIndex = 0;
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, nextIndex);
    lowLink.set(node, nextIndex);
    nextIndex += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(next)!));
      }
    }
    if (lowLink.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

/** One shortest cycle through `start` inside its component, as start -> ... -> start. */
function shortestCycle(graph: Map<string, string[]>, component: string[], start: string): string[] {
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i += 1) {
    const node = queue[i];
    for (const next of graph.get(node) ?? []) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const cycle = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)!) cycle.push(at);
        return [start, ...cycle.slice(1).reverse(), start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}

test('the server’s files import one another without a cycle', () => {
  const graph = importGraph();
  assert.ok(graph.size > 100, `found only ${graph.size} files; is the walk looking in the right place?`);
  const components = tangledComponents(graph);
  const report = components.map((component) => {
    const cycle = shortestCycle(graph, component, component[0]);
    return `${component.length} files import one another in a loop, for example:\n  ${cycle.join('\n  -> ')}\n` +
      `all of them: ${component.join(', ')}`;
  });
  assert.ok(report.length === 0, `import cycles:\n\n${report.join('\n\n')}`);
});
