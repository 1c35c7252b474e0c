import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.js";

let harness: TestApp;
let token: string;

beforeAll(async () => {
  harness = await createTestApp();
  token = await harness.tokenFor("avery", ["admin"]);
});
afterAll(() => harness.close());

describe("the response envelope", () => {
  it("wraps success as { enoch, data }", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("application/json");
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(["data", "enoch"]);
    expect(body.enoch).toBe("test-release");
    expect(body.data.status).toBe("ok");
  });

  it("answers an unknown /api path with a 404 envelope", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/no/such/thing?x=1" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      enoch: "test-release",
      error: { status: 404, code: "not_found", message: "Not found: GET /api/no/such/thing" },
    });
  });

  it("answers a wrong method on a known path with a 404 envelope", async () => {
    const response = await harness.app.inject({ method: "DELETE", url: "/api/health" });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("not_found");
  });

  it("names the offending field of invalid input in a 400, never a 500", async () => {
    const response = await harness.app.inject({
      method: "GET",
      url: "/api/chrome/breadcrumbs?path=no-slash",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.enoch).toBe("test-release");
    expect(body.error.code).toBe("bad_request");
    expect(body.error.details.issues).toEqual([{ path: "querystring.path", message: "path must start with /" }]);
    expect(body.error.message).toContain("querystring.path");
  });

  it("reports a missing required parameter by name", async () => {
    const response = await harness.app.inject({
      method: "GET",
      url: "/api/chrome/breadcrumbs",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues[0].path).toBe("querystring.path");
  });

  it("answers malformed JSON with a 400 envelope", async () => {
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/health",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ enoch: "test-release", error: { status: 400, code: "bad_request" } });
  });

  it("answers 401 before looking at the input of a protected route", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/chrome/breadcrumbs?path=bad" });
    expect(response.statusCode).toBe(401);
  });
});
