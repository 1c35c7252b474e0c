import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.js";

const indexHtml = `<!doctype html><title>Vigil</title><div id=root></div>${"<!-- padding -->".repeat(100)}`;
const chunk = `export const screen = ${JSON.stringify("sign-in ".repeat(400))};`;
const distDir = mkdtempSync(path.join(tmpdir(), "vigil-web-dist-"));
let harness: TestApp;

beforeAll(async () => {
  const files: Record<string, string | Buffer> = {
    "index.html": indexHtml,
    "index.html.br": brotliCompressSync(indexHtml),
    "assets/signin-9f8e.js": chunk,
    // What the build writes beside each text file (apps/web/precompress-plugin.ts).
    "assets/signin-9f8e.js.br": brotliCompressSync(chunk),
    "assets/signin-9f8e.js.gz": gzipSync(chunk),
    "assets/signin-9f8e.js.map": '{"version":3,"sources":["../src/secret-source.ts"]}',
  };
  mkdirSync(path.join(distDir, "assets"));
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(distDir, file), content);
  harness = await createTestApp({ WEB_DIST_DIR: distDir });
});
afterAll(async () => {
  await harness.close();
  rmSync(distDir, { recursive: true, force: true });
});

const fetchChunk = (acceptEncoding?: string) =>
  harness.app.inject({
    method: "GET",
    url: "/assets/signin-9f8e.js",
    headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {},
  });

describe("the web app's static files", () => {
  it("are sent as the build's brotli copy to browsers that accept it", async () => {
    const response = await fetchChunk("gzip, deflate, br, zstd");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-type"]).toContain("javascript");
    expect(response.headers.vary).toContain("accept-encoding");
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.rawPayload.byteLength).toBeLessThan(chunk.length / 10);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(chunk);
  });

  it("fall back to gzip, then to the plain file", async () => {
    const gzipped = await fetchChunk("gzip");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(chunk);
    const plain = await fetchChunk();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(chunk);
  });

  it("include the app's page at /, compressed and uncompressed", async () => {
    const compressed = await harness.app.inject({ method: "GET", url: "/", headers: { "accept-encoding": "br" } });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(indexHtml);
    const plain = await harness.app.inject({ method: "GET", url: "/", headers: { "accept-encoding": "gzip" } });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(indexHtml);
  });

  it("never include source maps", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/assets/signin-9f8e.js.map" });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain("secret-source");
  });
});
