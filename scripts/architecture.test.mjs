// The house rules of docs/ARCHITECTURE.md ("Conventions") that a machine can check, over the imports of every
// source file: one-way imports between the web's layers and the server's, test kits only in tests, a contract
// that depends on nothing of ours, no import circle in the server, and no hand-written file too long to read.
// Each rule is its own test and names every file that breaks it, with the import that does.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildImportGraph, findCycles, readImports } from "./import-graph.mjs";

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

describe("web: one-way imports", () => {
  it("no feature imports another feature (what two features share lives in api/, components/ or lib/)", () => {
    const found = violations((file, entry) => {
      const from = unitOf(file, `${web}features/`);
      const to = unitOf(entry.file, `${web}features/`);
      return from && to && from !== to;
    });
    expectNone("apps/web/src/features/X must not import apps/web/src/features/Y", found);
  });

  it("the shared layers (api/, components/, lib/, config/) import neither features/ nor app/", () => {
    const found = violations((file, entry) => {
      const from = layerOf(file, web);
      const to = layerOf(entry.file, web);
      return ["api", "components", "lib", "config"].includes(from) && ["features", "app"].includes(to);
    });
    expectNone("apps/web/src/{api,components,lib,config} must not import apps/web/src/{features,app}", found);
  });
});

describe("server: one-way imports", () => {
  const infrastructure = [
    "db",
    "http",
    "identity",
    "plugins",
    "messaging",
    "audit",
    "events",
    "config",
    "errors",
    "links",
  ];

  it("the infrastructure (db, http, identity, plugins, messaging, audit, events, config, errors, links) imports no module and not the seed", () => {
    const found = violations((file, entry) => {
      const from = serverLayerOf(file);
      const to = serverLayerOf(entry.file);
      return infrastructure.includes(from) && (to === "modules" || to === "seed");
    });
    expectNone(`apps/server/src/{${infrastructure.join(",")}} must not import src/modules or src/seed`, found);
  });

  it("db/ imports neither identity/, http/ nor the modules", () => {
    const found = violations((file, entry) => {
      const to = serverLayerOf(entry.file);
      return serverLayerOf(file) === "db" && ["identity", "http", "modules", "seed"].includes(to);
    });
    expectNone("apps/server/src/db must not import src/{identity,http,modules,seed}", found);
  });

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
});

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
