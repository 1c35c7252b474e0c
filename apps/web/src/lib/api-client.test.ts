import { beforeEach, describe, expect, it } from "vitest";
import { envelope, errorEnvelope, installFetch, storeSignedInTokens, testConfig } from "../test/fake-server";
import { ApiRequestError, apiRequest, NoSessionError, requestFile } from "./api-client";
import { getApiErrors } from "./api-errors";
import { configureAuth } from "./auth";
import { getEnochState } from "./enoch-tracker";

describe("apiRequest", () => {
  let idToken: string;
  beforeEach(() => {
    // Without federation, Amplify is configured before the first await; nothing is left to wait for.
    void configureAuth(testConfig);
    idToken = storeSignedInTokens("alice", ["coordinator"]);
  });

  it("sends the ID token as a bearer token and returns the envelope's data", async () => {
    const { calls } = installFetch({ "GET /api/chrome": () => envelope({ items: [] }) });
    const result = await apiRequest("GET", "/chrome");
    expect(result).toEqual({ success: true, data: { items: [] }, error: null });
    expect(calls[0]?.authorization).toBe(`Bearer ${idToken}`);
    expect(getApiErrors()).toHaveLength(0);
  });

  it("encodes query parameters and skips empty ones", async () => {
    const { calls } = installFetch({ "GET /api/chrome/breadcrumbs": () => envelope({ items: [] }) });
    await apiRequest("GET", "/chrome/breadcrumbs", {
      query: { path: "/continuous-monitoring/clients/7/overview", cursor: undefined },
    });
    expect(calls[0]?.path).toBe("/api/chrome/breadcrumbs?path=%2Fcontinuous-monitoring%2Fclients%2F7%2Foverview");
  });

  it("maps an error envelope to success false with the server's error and adds it to the error list", async () => {
    installFetch({ "GET /api/users/bob": () => errorEnvelope(403, "forbidden", "Access denied") });
    const result = await apiRequest("GET", "/users/bob");
    expect(result).toEqual({
      success: false,
      data: null,
      error: { status: 403, code: "forbidden", message: "Access denied" },
    });
    expect(getApiErrors().map((entry) => entry.error.message)).toEqual(["Access denied"]);
    expect(getApiErrors()[0]?.request).toEqual({ method: "GET", path: "/users/bob" });
  });

  it("takes a bare message when the failure is not an envelope", async () => {
    installFetch({
      "GET /api/chrome": () => Response.json({ message: "Too many requests, slow down" }, { status: 429 }),
    });
    const result = await apiRequest("GET", "/chrome");
    expect(result?.error).toEqual({ status: 429, code: "too_many_requests", message: "Too many requests, slow down" });
    expect(getApiErrors()).toHaveLength(1);
  });

  it("falls back to 400 Bad Request when a failure carries neither error nor message", async () => {
    installFetch({ "GET /api/chrome": () => new Response("<html>Bad gateway</html>", { status: 502 }) });
    const result = await apiRequest("GET", "/chrome");
    expect(result).toEqual({
      success: false,
      data: null,
      error: { status: 400, code: "bad_request", message: "Bad Request" },
    });
    expect(getApiErrors()[0]?.error.message).toBe("Bad Request");
  });

  it("reports a network failure as 'An unexpected error occurred'", async () => {
    installFetch({
      "GET /api/chrome": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    const result = await apiRequest("GET", "/chrome");
    expect(result?.success).toBe(false);
    expect(result?.data).toBeNull();
    expect(result?.error?.message).toBe("An unexpected error occurred");
    expect(getApiErrors()[0]?.error.message).toBe("An unexpected error occurred");
  });

  it("keeps statuses the caller expects off the error list", async () => {
    installFetch({ "GET /api/chrome": () => errorEnvelope(403, "forbidden", "Access denied") });
    const result = await apiRequest("GET", "/chrome", { expectedStatuses: [403] });
    expect(result?.error?.message).toBe("Access denied");
    expect(getApiErrors()).toHaveLength(0);
  });

  it("records enoch from successes and failures alike", async () => {
    installFetch({
      "GET /api/chrome": () => envelope({ items: [] }, { enoch: "release-1" }),
      "GET /api/users/alice": () => errorEnvelope(500, "internal", "Internal Server Error", "release-2"),
    });
    await apiRequest("GET", "/chrome");
    await apiRequest("GET", "/users/alice");
    expect(getEnochState()).toEqual({ loadedWith: "release-1", latest: "release-2", changed: true });
  });

  it("skips the call and returns null when nobody is signed in", async () => {
    window.localStorage.clear();
    const { fetchMock } = installFetch({ "GET /api/chrome": () => envelope({ items: [] }) });
    expect(await apiRequest("GET", "/chrome")).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("calls public endpoints without a session when asked to", async () => {
    window.localStorage.clear();
    const { calls } = installFetch({ "GET /api/config": () => envelope(testConfig) });
    const result = await apiRequest("GET", "/config", { anonymous: true });
    expect(result?.success).toBe(true);
    expect(calls[0]?.authorization).toBeNull();
  });
});

describe("requestFile", () => {
  let idToken: string;
  beforeEach(() => {
    void configureAuth(testConfig);
    idToken = storeSignedInTokens("alice", ["coordinator"]);
  });

  it("returns a PDF answer's bytes as a Blob, asked for with the bearer token and the file's type", async () => {
    const accepts: (string | null)[] = [];
    const { calls } = installFetch({
      "GET /api/reports/7/pdf": ({ headers }) => {
        accepts.push(headers.get("accept"));
        return new Response("%PDF-1.7 bytes", { headers: { "content-type": "application/pdf" } });
      },
    });
    const file = await requestFile("GET", "/reports/7/pdf", "pdf");
    expect(await file.text()).toBe("%PDF-1.7 bytes");
    expect(file.type).toBe("application/pdf");
    expect(calls[0]?.authorization).toBe(`Bearer ${idToken}`);
    expect(accepts).toEqual(["application/pdf, application/json"]);
  });

  it("throws the envelope's error of a refused file, lists it and records its enoch", async () => {
    installFetch({ "GET /api/reports/7/pdf": () => errorEnvelope(404, "not_found", "No such report", "release-2") });
    const failure = await requestFile("GET", "/reports/7/pdf", "pdf").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect((failure as ApiRequestError).body).toEqual({ status: 404, code: "not_found", message: "No such report" });
    expect(getApiErrors().map((entry) => entry.error.message)).toEqual(["No such report"]);
    expect(getEnochState().latest).toBe("release-2");
  });

  it("keeps a refusal the caller expects off the error list", async () => {
    window.localStorage.clear();
    installFetch({ "POST /api/links/download": () => errorEnvelope(410, "gone", "This link cannot be used.") });
    const failure = await requestFile("POST", "/links/download", "pdf", {
      anonymous: true,
      body: { token: "t" },
      expectedStatuses: [410],
    }).catch((error: unknown) => error);
    expect((failure as ApiRequestError).body.status).toBe(410);
    expect(getApiErrors()).toHaveLength(0);
  });

  it("makes no call without a session", async () => {
    window.localStorage.clear();
    const { fetchMock } = installFetch({});
    await expect(requestFile("GET", "/reports/7/pdf", "pdf")).rejects.toBeInstanceOf(NoSessionError);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
