import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The import graph between module folders (`modules/<feature>`), read with the TypeScript
 * compiler's own import scanner (no dependency: madge and the like add a parser stack to
 * answer a question the compiler already answers). Type-only imports count: they couple
 * folders as much as value imports do. Tests are left out, and so are the layers above and
 * below the modules (`lib`, `db`, `jobs` below; `plugins`, the container and app above),
 * which modules may use and which may use modules.
 */
export function folderGraph(srcDir: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of fs.readdirSync(srcDir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const from = folderOf(file);
    if (!from) continue;
    const text = fs.readFileSync(path.join(srcDir, file), 'utf8');
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = folderOf(path.relative(srcDir, path.resolve(srcDir, path.dirname(file), fileName)));
      if (to && to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** `modules/audits/audits.service.ts` -> `modules/audits`; files outside modules/ have none. */
function folderOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  return parts[0] === 'modules' && parts.length > 2 ? `modules/${parts[1]}` : undefined;
}

/** Every cycle between folders, each as the path that closes it (a -> b -> a). */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const seen = new Set<string>();
  const visit = (node: string, trail: string[]) => {
    const at = trail.indexOf(node);
    if (at >= 0) return void found.push([...trail.slice(at), node]);
    if (seen.has(node)) return;
    seen.add(node);
    for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
  };
  for (const node of [...graph.keys()].sort()) visit(node, []);
  return found;
}
