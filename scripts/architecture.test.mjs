// What docs/ARCHITECTURE.md (the map) states, checked against the code, so the map cannot drift from it:
// - the floors: each ```floors block of the map is the one table of floors this test enforces over the imports
//   (a part imports only its own files and the parts of lower floors), and every part of the code is on a floor;
// - the rules it lists: config*.ts the only readers of process.env, module to module only through *-service.ts,
//   no feature importing another, test kits only in tests, a contract and an e2e/ importing nothing of ours but
//   what they may, no import circle, no hand-written file too long to read, kebab-case folders;
// - its names: every repository path and identifier it (and docs/CODE_STYLE.md and docs/design/*.md) writes in
//   backticks exists;
// - its length: a map a newcomer reads in ten minutes.
// Each rule is its own test and names every file that breaks it, with the import (or line) that does.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildImportGraph, findCycles, maskSource, readImports } from "./import-graph.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const graph = buildImportGraph(repoRoot);

const web = "apps/web/src/";
const server = "apps/server/src/";
const contract = "packages/contract/";

/** A test, an end-to-end journey, the benchmark or a test kit: the places allowed to use test kits. */
const isTestFile = (file) => /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(file);
const testKitFolder = /(?:^|\/)(?:testing|test)\//;
const mayUseTestKits = (file) =>
  isTestFile(file) || file.startsWith("e2e/") || file.startsWith("bench/") || testKitFolder.test(file);

/** The first folder (or file, without extension) under `prefix`: `apps/server/src/db/client.ts` → `db`. */
function layerOf(file, prefix) {
  if (!file?.startsWith(prefix)) return undefined;
  return file
    .slice(prefix.length)
    .split("/")[0]
    .replace(/\.[^.]+$/, "");
}

/** The server's part a file belongs to; the top-level config files (config.ts, config-*.ts) are one part, `config`. */
function serverLayerOf(file) {
  const layer = layerOf(file, server);
  return layer?.startsWith("config-") ? "config" : layer;
}

/** `apps/web/src/features/cases/x.tsx` → `cases`; `apps/server/src/modules/billing/y.ts` → `billing`. */
function unitOf(file, prefix) {
  if (!file?.startsWith(prefix)) return undefined;
  return file.slice(prefix.length).split("/")[0];
}

/** Every import whose importer and target satisfy `breaks`, as `importer → target ("specifier")` lines. */
function violations(breaks) {
  const found = [];
  for (const [file, { imports }] of graph) {
    for (const entry of imports) {
      const reason = breaks(file, entry);
      if (!reason) continue;
      const target = entry.file ?? entry.workspace ?? entry.external;
      found.push(`${file} → ${target} (import "${entry.specifier}")${typeof reason === "string" ? `: ${reason}` : ""}`);
    }
  }
  return found;
}

/** Fails with the rule and one line per violation (the count alone would say nothing about where). */
function expectNone(rule, found) {
  expect(found.length, `${rule}\n${found.length} violation(s):\n  ${found.join("\n  ")}\n`).toBe(0);
}

describe("the import reader", () => {
  it("reads static, type-only, re-export and dynamic imports, and nothing written in comments or strings", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type { B } from "../b.js";',
      "import {",
      "  c,",
      "  type D,",
      '} from "@vigil/contract";',
      'export * from "./e.js";',
      'export type { F } from "./f.js";',
      'import "./side-effect.css";',
      "// import { x } from './commented.js';",
      "/* import { y } from './block-commented.js'; */",
      "const text = \"import { z } from './in-a-string.js'\";",
      "const pattern = /[\"']/g;",
      // The interpolation is spelled in two strings so this file's own linter sees no template placeholder.
      "const template = `import { w } from './in-a-template.js' $" + "{await import('./inside-interpolation.js')}`;",
      "const Component = () => <p>Don't import me from 'here'</p>;",
      'const lazy = () => import("./lazy.js");',
    ].join("\n");
    expect(readImports(source)).toEqual([
      { specifier: "./a.js", typeOnly: false, dynamic: false },
      { specifier: "../b.js", typeOnly: true, dynamic: false },
      { specifier: "@vigil/contract", typeOnly: false, dynamic: false },
      { specifier: "./e.js", typeOnly: false, dynamic: false },
      { specifier: "./f.js", typeOnly: true, dynamic: false },
      { specifier: "./side-effect.css", typeOnly: false, dynamic: false },
      { specifier: "./inside-interpolation.js", typeOnly: false, dynamic: true },
      { specifier: "./lazy.js", typeOnly: false, dynamic: true },
    ]);
  });

  it("finds each import circle once, as its shortest round trip", () => {
    const edges = { a: ["b"], b: ["c"], c: ["a", "d"], d: [], e: ["e"], f: ["g"], g: [] };
    const synthetic = new Map(
      Object.entries(edges).map(([file, targets]) => [file, { imports: targets.map((target) => ({ file: target })) }]),
    );
    expect(findCycles(synthetic, new Set(Object.keys(edges)))).toEqual([
      ["a", "b", "c", "a"],
      ["e", "e"],
    ]);
    const wider = new Map([
      ["a", { imports: [{ file: "b" }] }],
      ["b", { imports: [{ file: "a" }, { file: "c" }] }],
      ["c", { imports: [{ file: "a" }] }],
    ]);
    expect(findCycles(wider, new Set(["a", "b", "c"]))).toEqual([["a", "b", "a", "(and c in the same circle)"]]);
  });

  it("finds the repository's files and resolves their imports to files", () => {
    const files = [...graph.keys()];
    expect(files.filter((file) => file.startsWith(server)).length).toBeGreaterThan(100);
    expect(files.filter((file) => file.startsWith(web)).length).toBeGreaterThan(100);
    const index = graph.get(`${contract}src/index.ts`);
    expect(index?.imports.filter((entry) => entry.file && !entry.missing).length).toBeGreaterThan(10);
    const app = graph.get(`${server}app.ts`);
    expect(app?.imports.some((entry) => entry.file === `${server}config.ts` && entry.typeOnly)).toBe(true);
    const register = graph.get(`${server}http/register-route.ts`);
    expect(register?.imports.some((entry) => entry.file === `${contract}src/index.ts`)).toBe(true);
  });
});

/**
 * The floors of one part of the code, read from a fenced block of the map:
 *
 *     ```floors apps/server/src/
 *     2  db/
 *     1  config.ts  errors/
 *     ```
 *
 * Each line is a floor number and the parts on it (a folder, written with its `/`, or a top-level file); a part is
 * named as `partOf` names files. Returns the root and a Map part → floor.
 */
function parseFloors(markdown) {
  const tables = [];
  for (const match of markdown.matchAll(/^```floors[ \t]+(\S+)[ \t]*\n([\s\S]*?)^```/gm)) {
    const root = match[1].endsWith("/") ? match[1] : `${match[1]}/`;
    const floors = new Map();
    const written = [];
    for (const line of match[2].split("\n")) {
      const row = /^\s*(\d+)\s+(.+?)\s*$/.exec(line);
      if (!row) continue;
      for (const name of row[2].split(/\s+/)) {
        written.push(name);
        floors.set(name.replace(/\/$/, "").replace(/\.[^.]+$/, ""), Number(row[1]));
      }
    }
    tables.push({ root, floors, written });
  }
  return tables;
}

/** The part of `root` a file belongs to: its first folder, or a top-level file without extension; config-*.ts is config. */
function partOf(file, root) {
  const part = layerOf(file, root);
  if (part === undefined) return undefined;
  return root === server && part.startsWith("config-") ? "config" : part;
}

/** Declarations (`*.d.ts`) hold no code that imports; they sit on no floor. */
const isDeclaration = (file) => file.endsWith(".d.ts");

const map = readFileSync(path.join(repoRoot, "docs/ARCHITECTURE.md"), "utf8");
const floorTables = parseFloors(map);

describe("the floors the map states", () => {
  it("reads a floors block of the map for the server, the server's modules and the web", () => {
    expect(floorTables.map((table) => table.root)).toEqual(expect.arrayContaining([server, `${server}modules/`, web]));
    expect(parseFloors("```floors a/b\n2  c/  d.ts\n1  e/\n```\n").map((t) => [t.root, [...t.floors]])).toEqual([
      [
        "a/b/",
        [
          ["c", 2],
          ["d", 2],
          ["e", 1],
        ],
      ],
    ]);
  });

  for (const { root, floors, written } of floorTables) {
    describe(root, () => {
      it("names parts that exist", () => {
        const missing = written.filter((name) => !existsSync(path.join(repoRoot, root, name)));
        expectNone(`every part a floor names exists under ${root}`, missing);
      });

      it("puts every part of the code on a floor (a new folder is placed in the map)", () => {
        const parts = new Set(
          [...graph.keys()]
            .filter((file) => !isDeclaration(file) && !mayUseTestKits(file))
            .map((file) => partOf(file, root)),
        );
        parts.delete(undefined);
        const unplaced = [...parts].filter((part) => !floors.has(part)).sort();
        expectNone(`every folder and file of ${root} is on a floor of the map's floors block`, unplaced);
      });

      // Tests and test kits may reach any floor: a test of a lower part often builds the whole app.
      it("imports run only down: a part imports its own files and lower floors, never its floor's other parts", () => {
        const found = violations((file, entry) => {
          if (mayUseTestKits(file)) return false;
          const from = partOf(file, root);
          const to = partOf(entry.file, root);
          if (from === undefined || to === undefined || from === to) return false;
          const fromFloor = floors.get(from);
          const toFloor = floors.get(to);
          if (fromFloor === undefined || toFloor === undefined) return false; // said by the test above
          return toFloor >= fromFloor && `floor ${fromFloor} imports floor ${toFloor}`;
        });
        expectNone(`${root}: imports only to lower floors (docs/ARCHITECTURE.md, floors ${root})`, found);
      });
    });
  }
});

// Paths named in the documents. The rule: a backticked name is a repository path when it holds no space and no
// sign of a URL, route or placeholder value (a leading `/`, `@` or `.`, or any of `: … $ # ? = | , ( ) + ' "`), is
// no MIME type, environment-relative name (`DATA_DIR/x`) or package specifier (its first segment an installed
// package that is no folder of ours), and either ends in .ts/.tsx/.mjs/.md or starts with a folder name of the
// repository. It exists when a tracked (or new, unignored) file or folder is that path or ends with `/` and that
// path, so `identity/session-cache.ts` names apps/server/src/identity/session-cache.ts. Within a segment `<name>`
// and `*` stand for any text, `{a,b}` for each alternative, and a name without extension may leave the file's out.
const repositoryFiles = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: repoRoot,
  encoding: "utf8",
})
  .split("\n")
  .filter(Boolean);
const repositoryFolders = new Set(
  repositoryFiles.flatMap((file) =>
    file
      .split("/")
      .slice(0, -1)
      .map((_, index, parts) => parts.slice(0, index + 1).join("/")),
  ),
);
const folderNames = new Set([...repositoryFolders].map((folder) => folder.split("/").at(-1)));
const repositoryEntries = [...repositoryFiles, ...repositoryFolders];

/** Every `inline code` name of a Markdown text with its line, outside fenced blocks. */
function backtickedNames(markdown) {
  const names = [];
  let fenced = false;
  markdown.split("\n").forEach((text, index) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    else if (!fenced) for (const match of text.matchAll(/`([^`]+)`/g)) names.push({ name: match[1], line: index + 1 });
  });
  return names;
}

function isRepositoryPath(name) {
  if (/\s/.test(name) || /^[/@.]|^https?:/.test(name) || /[:…$#?=|,()+'"]/.test(name)) return false;
  if (/^(?:application|text|image|multipart)\//.test(name) || /^[A-Z_]+\//.test(name)) return false;
  const first = name.split("/")[0];
  if (!folderNames.has(first) && existsSync(path.join(repoRoot, "node_modules", first))) return false;
  return /\.(?:ts|tsx|mjs|md)$/.test(name) || (name.includes("/") && folderNames.has(first));
}

/** `a/{b,c}` → `a/b`, `a/c`. */
function alternatives(name) {
  const brace = /\{([^{}]*)\}/.exec(name);
  if (!brace) return [name];
  const [before, after] = [name.slice(0, brace.index), name.slice(brace.index + brace[0].length)];
  return brace[1].split(",").flatMap((choice) => alternatives(`${before}${choice}${after}`));
}

function resolves(name) {
  return alternatives(name.replace(/\/$/, "")).every((alternative) => {
    const pattern = alternative
      .split(/(<[^>]+>|\*)/)
      .map((piece, index) => (index % 2 === 1 ? "[^/]*" : piece.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
      .join("");
    const matcher = new RegExp(`(?:^|/)${pattern}(?:\\.[a-z]+)?$`);
    return repositoryEntries.some((entry) => matcher.test(entry));
  });
}

describe("the map's names and length", () => {
  const limit = 300;

  it(`the map is at most ${limit} lines: behaviour belongs in docs/design/, not in the map`, () => {
    expect(map.split("\n").length).toBeLessThanOrEqual(limit);
  });

  const documents = [
    "docs/ARCHITECTURE.md",
    "docs/CODE_STYLE.md",
    // PRODUCT.md names no code: its backticked paths are the API's, relative to a resource (`time-logs/latest/…`).
    ...readdirSync(path.join(repoRoot, "docs/design"))
      .filter((name) => name.endsWith(".md") && name !== "PRODUCT.md")
      .map((name) => `docs/design/${name}`),
  ];

  it("recognises repository paths among backticked names, and resolves them as the rule says", () => {
    for (const name of ["plugins/security.ts", "db/", "security.ts", "modules/<m>/<m>-routes.ts", "schemas/records/"]) {
      expect(isRepositoryPath(name), name).toBe(true);
    }
    for (const name of ["/api/config", "GET /api/audit", "text/event-stream", "@mui/material/Dialog", "zod/v4"]) {
      expect(isRepositoryPath(name), name).toBe(false);
    }
    for (const name of ["DATA_DIR/pglite", "…/reports/{reportId}/fhir", "#/report/<token>", "a/b"]) {
      expect(isRepositoryPath(name), name).toBe(false);
    }
    expect(resolves("identity/session-cache.ts")).toBe(true);
    expect(resolves("http/security-headers")).toBe(true);
    expect(resolves("modules/<module>/<module>-routes.ts")).toBe(true);
    expect(resolves("features/<f>/{api,components}")).toBe(true);
    expect(resolves("plugins/security.ts")).toBe(false);
    expect(resolves("features/<f>/{api,nowhere}")).toBe(false);
  });

  // An identifier is a backticked name in camelCase, PascalCase with a second capital, or snake_case (a table or
  // column); it exists when it is a whole word of some source file (tables and columns are named in db/tables/).
  const isIdentifier = (name) =>
    /^[A-Za-z_$][\w$]*$/.test(name) && (/[a-z][A-Z]/.test(name) || /[A-Za-z]_[A-Za-z]/.test(name));
  const sourceWords = new Set(
    [...graph.keys()].flatMap((file) =>
      existsSync(path.join(repoRoot, file)) ? readFileSync(path.join(repoRoot, file), "utf8").split(/[^\w$]+/) : [],
    ),
  );

  it("tells identifiers from other backticked names", () => {
    for (const name of ["recordCaseChange", "AppError", "case_clocks", "FINDING_WORKER_SECONDS"]) {
      expect(isIdentifier(name), name).toBe(true);
    }
    for (const name of ["db/", "patientData: true", "public", "Dialog", "USD"]) {
      expect(isIdentifier(name), name).toBe(false);
    }
  });

  for (const document of documents) {
    it(`every identifier ${document} names in backticks is a word of the code`, () => {
      const missing = backtickedNames(readFileSync(path.join(repoRoot, document), "utf8"))
        .map(({ name, line }) => ({ name: name.replace(/\(\)$/, ""), line }))
        .filter(({ name }) => isIdentifier(name) && !sourceWords.has(name))
        .map(({ name, line }) => `${document}:${line}: \`${name}\``);
      expectNone(`${document} names identifiers the code does not have`, missing);
    });

    it(`every repository path ${document} names in backticks exists`, () => {
      const missing = backtickedNames(readFileSync(path.join(repoRoot, document), "utf8"))
        .filter(({ name }) => isRepositoryPath(name) && !resolves(name))
        .map(({ name, line }) => `${document}:${line}: \`${name}\``);
      expectNone(
        `${document} names paths that do not exist (rule: resolves() in scripts/architecture.test.mjs)`,
        missing,
      );
    });
  }
});

describe("web: one-way imports", () => {
  it("no feature imports another feature (what two features share lives in api/, components/ or lib/)", () => {
    const found = violations((file, entry) => {
      const from = unitOf(file, `${web}features/`);
      const to = unitOf(entry.file, `${web}features/`);
      return from && to && from !== to;
    });
    expectNone("apps/web/src/features/X must not import apps/web/src/features/Y", found);
  });
});

describe("server: one-way imports", () => {
  it("config (config.ts, config-*.ts) imports no other part of the server: it is read once, before anything else", () => {
    const found = violations((file, entry) => {
      const to = serverLayerOf(entry.file);
      return serverLayerOf(file) === "config" && !isTestFile(file) && to !== undefined && to !== "config";
    });
    expectNone("apps/server/src/config*.ts may import only packages and each other", found);
  });

  it("a module uses another module only through its *-service.ts files", () => {
    const found = violations((file, entry) => {
      const from = unitOf(file, `${server}modules/`);
      const to = unitOf(entry.file, `${server}modules/`);
      return from && to && from !== to && !/-service\.ts$/.test(entry.file);
    });
    expectNone("apps/server/src/modules/X may import from modules/Y only modules/Y/**/*-service.ts", found);
  });

  it("has no import circle (type-only imports count: a circle of types is still a circle of meaning)", () => {
    const files = new Set([...graph.keys()].filter((file) => file.startsWith(server)));
    const circles = findCycles(graph, files).map((circle) => circle.join(" → "));
    expectNone("apps/server/src must have no import circle", circles);
  });

  it("only config.ts and config-*.ts read process.env (tests and test kits aside): every setting is listed there", () => {
    const found = [];
    for (const file of graph.keys()) {
      if (!file.startsWith(server) || mayUseTestKits(file) || serverLayerOf(file) === "config") continue;
      if (!existsSync(path.join(repoRoot, file))) continue; // deleted since the graph was read
      // Comments and strings are masked first: a comment may say "process.env" without reading it.
      const { masked } = maskSource(readFileSync(path.join(repoRoot, file), "utf8"));
      for (const line of masked.split("\n")) {
        if (readsEnvironment(line)) found.push(`${file}: ${line.trim()}`);
      }
    }
    expectNone("apps/server/src: process.env is read only in config*.ts; pass what a part needs from Config", found);
  });

  it("recognises the ways of reading process.env", () => {
    for (const line of [
      "process.env.PGUSER",
      "process .env",
      'process["§0"]',
      "const { env } = process",
      "env: process.env",
    ]) {
      expect(readsEnvironment(line), line).toBe(true);
    }
    for (const line of ["process.cwd()", "process.exit(1)", "processEnvironment", "childEnvironment: env"]) {
      expect(readsEnvironment(line), line).toBe(false);
    }
  });
});

/** A line of masked code that reads the environment: `process.env`, `process[…]` or destructuring from `process`. */
function readsEnvironment(line) {
  return /\bprocess\s*(?:\.\s*env\b|\[)/.test(line) || /\}\s*=\s*process\b(?!\s*\.)/.test(line);
}

describe("test kits", () => {
  it("testing/ (and the web's test/) folders are imported only by tests, e2e/, bench/ and other test kits", () => {
    const found = violations((file, entry) => testKitFolder.test(entry.file ?? "") && !mayUseTestKits(file));
    expectNone("only *.test.* files, e2e/, bench/ and testing/ itself may import a testing/ folder", found);
  });
});

describe("contract", () => {
  it("imports nothing of ours: no @vigil/* package and no path out of packages/contract", () => {
    const found = violations((file, entry) => {
      if (!file.startsWith(contract)) return false;
      if (entry.workspace) return true;
      return entry.file !== undefined && !entry.file.startsWith(contract);
    });
    expectNone("packages/contract must import only packages (zod) and its own files", found);
  });

  it("has no import circle", () => {
    const files = new Set([...graph.keys()].filter((file) => file.startsWith(contract)));
    const circles = findCycles(graph, files).map((circle) => circle.join(" → "));
    expectNone("packages/contract must have no import circle", circles);
  });
});

describe("e2e", () => {
  it("imports nothing of ours but the contract: journeys drive the built app and the real server as a process", () => {
    const found = violations((file, entry) => {
      if (!file.startsWith("e2e/")) return false;
      if (entry.workspace) return entry.workspace !== "@vigil/contract";
      return entry.file !== undefined && !entry.file.startsWith("e2e/");
    });
    expectNone("e2e/ may import only packages, @vigil/contract and its own files", found);
  });
});

describe("names", () => {
  it("every folder holding source is kebab-case (Biome's useFilenamingConvention checks the file names)", () => {
    const folders = new Set([...graph.keys()].flatMap((file) => file.split("/").slice(0, -1)));
    const found = [...folders].filter((folder) => !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(folder)).sort();
    expectNone("folder names must be kebab-case", found);
  });
});

describe("file size", () => {
  const limit = 550;

  // SQL migrations, generated, are skipped by the walk; every source file the walk reads is held to the limit.
  it(`no hand-written source file is over ${limit} lines (tests and generated files aside)`, () => {
    const found = [...graph]
      .filter(([file, { lines }]) => lines > limit && !isTestFile(file))
      .map(([file, { lines }]) => `${file}: ${lines} lines`);
    expectNone(`source files must be at most ${limit} lines: split them along their seams`, found);
  });
});
