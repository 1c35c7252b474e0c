// The import graph of the repository's own source files, for the architecture test (architecture.test.mjs).
// Each file's import and export-from statements and dynamic `import("…")` calls are read with a small scanner:
// comments and the contents of strings and templates are set aside first, so an import written inside a comment
// or a string is not one, and every module specifier is resolved the way TypeScript resolves ours (`./x.js` is
// `./x.ts`, the web's extensionless paths, `@vigil/contract` is the contract's index).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Where our code lives, relative to the repository root. */
export const sourceRoots = ["apps/server", "apps/web", "packages/contract", "e2e", "bench", "scripts"];

const skippedFolders = new Set(["node_modules", "dist", ".test-results", "coverage", "migrations"]);
const codeFile = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** Every code file under the source roots (paths relative to `repoRoot`, with `/`), sorted. */
export function listSourceFiles(repoRoot) {
  const files = [];
  const walk = (relative) => {
    for (const entry of readdirSync(path.join(repoRoot, relative), { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name)) walk(child);
      } else if (codeFile.test(entry.name)) {
        files.push(child);
      }
    }
  };
  for (const root of sourceRoots) {
    if (existsSync(path.join(repoRoot, root))) walk(root);
  }
  return files.sort();
}

const regexAllowedAfter = new Set(["", "(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "+", "-", "*", "%"]);
const regexAllowedAfterWord = new Set(["return", "typeof", "case", "do", "else", "in", "of", "void", "yield", "await"]);

/**
 * The text with comments removed and every string literal replaced by `"§N"`, N indexing `strings`; template
 * literals keep only the code of their `${…}` parts. A quote in JSX text opens a string that ends at the line's end,
 * so it cannot swallow the lines after it.
 */
export function maskSource(source) {
  const strings = [];
  let out = "";
  let index = 0;
  let lastSignificant = "";
  let lastWord = "";
  const templateDepths = [];
  let braceDepth = 0;

  const readString = (quote) => {
    let value = "";
    index += 1;
    while (index < source.length) {
      const char = source[index];
      if (char === "\\") {
        value += source.slice(index, index + 2);
        index += 2;
        continue;
      }
      if (char === quote || char === "\n") break;
      value += char;
      index += 1;
    }
    if (source[index] === quote) index += 1;
    strings.push(value);
    out += `"§${strings.length - 1}"`;
  };

  /** From after a backtick (or a `}` closing an interpolation) to the template's end or its next `${`. */
  const readTemplateText = () => {
    while (index < source.length) {
      const char = source[index];
      if (char === "\\") {
        index += 2;
        continue;
      }
      if (char === "`") {
        index += 1;
        out += "``";
        return;
      }
      if (char === "$" && source[index + 1] === "{") {
        index += 2;
        out += "`${";
        templateDepths.push(braceDepth);
        braceDepth += 1;
        return;
      }
      if (char === "\n") out += "\n";
      index += 1;
    }
  };

  while (index < source.length) {
    const char = source[index];
    const next = source[index + 1];
    if (char === "/" && next === "/") {
      while (index < source.length && source[index] !== "\n") index += 1;
      continue;
    }
    if (char === "/" && next === "*") {
      const end = source.indexOf("*/", index + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += source.slice(index, stop).replace(/[^\n]/g, "");
      index = stop;
      continue;
    }
    if (char === '"' || char === "'") {
      readString(char);
      lastSignificant = '"';
      lastWord = "";
      continue;
    }
    if (char === "`") {
      index += 1;
      readTemplateText();
      lastSignificant = "`";
      lastWord = "";
      continue;
    }
    if (char === "/" && (regexAllowedAfter.has(lastSignificant) || regexAllowedAfterWord.has(lastWord))) {
      // A regular expression literal: skip it whole, so a quote inside it opens no string.
      let inClass = false;
      index += 1;
      while (index < source.length && source[index] !== "\n") {
        const inner = source[index];
        if (inner === "\\") {
          index += 2;
          continue;
        }
        if (inner === "[") inClass = true;
        else if (inner === "]") inClass = false;
        else if (inner === "/" && !inClass) break;
        index += 1;
      }
      index += 1;
      out += "/./";
      lastSignificant = ")";
      lastWord = "";
      continue;
    }
    if (char === "{") braceDepth += 1;
    if (char === "}") {
      braceDepth -= 1;
      if (templateDepths.length > 0 && templateDepths[templateDepths.length - 1] === braceDepth) {
        templateDepths.pop();
        index += 1;
        out += "}";
        readTemplateText();
        lastSignificant = "`";
        continue;
      }
    }
    out += char;
    index += 1;
    if (/\s/.test(char)) continue;
    if (/[\w$]/.test(char)) {
      lastWord = /[\w$]/.test(lastSignificant) ? lastWord + char : char;
    } else {
      lastWord = "";
    }
    lastSignificant = char;
  }
  return { masked: out, strings };
}

const staticImport = /(?:^|[\s;}])(import|export)\s+(type\s+)?(?:[\w$*{}\s,]*?\s*from\s*)?"§(\d+)"/g;
const dynamicImport = /\bimport\s*\(\s*"§(\d+)"\s*\)/g;

/** The module specifiers a file imports: `{ specifier, typeOnly, dynamic }` in source order. */
export function readImports(source) {
  const { masked, strings } = maskSource(source);
  const found = [];
  for (const match of masked.matchAll(staticImport)) {
    found.push({
      at: match.index,
      specifier: strings[Number(match[3])],
      typeOnly: Boolean(match[2]),
      dynamic: false,
    });
  }
  for (const match of masked.matchAll(dynamicImport)) {
    found.push({ at: match.index, specifier: strings[Number(match[1])], typeOnly: false, dynamic: true });
  }
  return found.sort((a, b) => a.at - b.at).map(({ at: _at, ...rest }) => rest);
}

const workspacePackages = { "@vigil/contract": "packages/contract/src/index.ts" };
const extensionSwaps = { ".js": [".ts", ".tsx"], ".jsx": [".tsx"], ".mjs": [".mts"], ".cjs": [".cts"] };
const implicitExtensions = [".ts", ".tsx", ".mts", ".js", ".mjs", ".jsx"];

function isFile(absolute) {
  try {
    return statSync(absolute).isFile();
  } catch {
    return false;
  }
}

/**
 * Where `specifier`, imported by `fromFile`, leads: `{ file }` for one of our files (repository-relative), also
 * for a relative path that does not exist (`missing: true`), or `{ external }` for a package.
 */
export function resolveImport(repoRoot, fromFile, specifier) {
  if (specifier in workspacePackages) return { file: workspacePackages[specifier], workspace: specifier };
  if (specifier.startsWith("@vigil/")) return { file: undefined, workspace: specifier };
  if (!specifier.startsWith(".")) return { external: specifier };
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  const candidates = [base];
  const extension = path.posix.extname(base);
  for (const swap of extensionSwaps[extension] ?? []) candidates.push(base.slice(0, -extension.length) + swap);
  for (const added of implicitExtensions) candidates.push(base + added);
  for (const added of implicitExtensions) candidates.push(`${base}/index${added}`);
  const found = candidates.find((candidate) => isFile(path.join(repoRoot, candidate)));
  return found ? { file: found } : { file: base, missing: true };
}

/** Every source file with its resolved imports: `Map<file, { lines, imports: [{ specifier, typeOnly, dynamic, file?, external?, missing? }] }>`. */
export function buildImportGraph(repoRoot) {
  const graph = new Map();
  for (const file of listSourceFiles(repoRoot)) {
    const source = readFileSync(path.join(repoRoot, file), "utf8");
    const imports = readImports(source).map((entry) => ({
      ...entry,
      ...resolveImport(repoRoot, file, entry.specifier),
    }));
    graph.set(file, { lines: (source.match(/\n/g) ?? []).length, imports });
  }
  return graph;
}

/**
 * The import circles among `files` (a set): each strongly connected component of more than one file, or a file
 * importing itself, given as one shortest round trip `[a, b, …, a]` through it (plus a note naming the component's
 * other files, when it has more).
 */
export function findCycles(graph, files) {
  const edges = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const entry of graph.get(file)?.imports ?? []) {
      if (entry.file && files.has(entry.file)) targets.add(entry.file);
    }
    edges.set(file, [...targets].sort());
  }
  // Tarjan's algorithm, iterative so a deep chain cannot overflow the stack.
  const indexOf = new Map();
  const lowOf = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let counter = 0;
  for (const start of [...files].sort()) {
    if (indexOf.has(start)) continue;
    const work = [[start, 0]];
    indexOf.set(start, counter);
    lowOf.set(start, counter);
    counter += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, position] = frame;
      const targets = edges.get(node) ?? [];
      if (position < targets.length) {
        frame[1] += 1;
        const target = targets[position];
        if (!indexOf.has(target)) {
          indexOf.set(target, counter);
          lowOf.set(target, counter);
          counter += 1;
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          lowOf.set(node, Math.min(lowOf.get(node), indexOf.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        lowOf.set(parent, Math.min(lowOf.get(parent), lowOf.get(node)));
      }
      if (lowOf.get(node) === indexOf.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        const selfImport = (edges.get(node) ?? []).includes(node);
        if (component.length > 1 || selfImport) components.push(component.sort());
      }
    }
  }
  return components.map((component) => {
    const roundTrip = shortestRoundTrip(edges, new Set(component), component[0]);
    // A circle through more files than its shortest round trip: name them all, or fixing one trip reveals the next.
    const others = component.filter((file) => !roundTrip.includes(file));
    return others.length > 0 ? [...roundTrip, `(and ${others.join(", ")} in the same circle)`] : roundTrip;
  });
}

/** The shortest path from `start` back to itself inside `members` (breadth first). */
function shortestRoundTrip(edges, members, start) {
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of edges.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let step = node; step !== start; step = previous.get(step)) path.splice(1, 0, step);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
