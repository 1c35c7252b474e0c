import { describe, expect, it } from "vitest";
import { latenciesBetween, serverLatencies, slowRequests } from "./server-latency.js";

const exposition = (listCases: number[], metrics: number[], post: number[]) =>
  [
    "# HELP vigil_http_request_duration_seconds Time from a request's arrival to its answer's end.",
    "# TYPE vigil_http_request_duration_seconds histogram",
    ...["0.01", "0.025", "+Inf"].flatMap((le, index) => [
      `vigil_http_request_duration_seconds_bucket{le="${le}",route="listCases",method="GET",status_class="2xx"} ${listCases[index]}`,
      `vigil_http_request_duration_seconds_bucket{le="${le}",route="metrics",method="GET",status_class="2xx"} ${metrics[index]}`,
      `vigil_http_request_duration_seconds_bucket{le="${le}",route="createCase",method="POST",status_class="2xx"} ${post[index]}`,
    ]),
    `vigil_http_request_duration_seconds_count{route="listCases",method="GET",status_class="2xx"} ${listCases[2]}`,
  ].join("\n");

describe("the server's own latencies beside the generator's", () => {
  it("counts the GET answers over each bound, leaving out the metrics' own and other methods", () => {
    expect(serverLatencies(exposition([90, 98, 100], [5, 5, 5], [1, 1, 7]))).toEqual({
      requests: 100,
      over: { "0.01": 10, "0.025": 2 },
    });
  });

  it("takes what the server counted between two readings", () => {
    const before = serverLatencies(exposition([90, 98, 100], [5, 5, 5], [0, 0, 0]));
    const after = serverLatencies(exposition([480, 495, 500], [6, 6, 6], [0, 0, 0]));
    expect(latenciesBetween(before, after)).toEqual({ requests: 400, over: { "0.01": 10, "0.025": 3 } });
  });

  it("reads nothing from a server without the histogram", () => {
    expect(serverLatencies("process_cpu_seconds_total 1.5\n")).toEqual({ requests: 0, over: {} });
  });
});

describe("a paced run's slow requests by both clocks", () => {
  it("counts the generator's latencies over 10 and 25 ms beside the server's counts", () => {
    const server = serverLatencies(exposition([390, 399, 400], [0, 0, 0], [0, 0, 0]));
    expect(slowRequests([3, 9, 10.5, 12, 26, 40], server)).toEqual([
      { overMs: 10, generator: 4, server: 10 },
      { overMs: 25, generator: 2, server: 1 },
    ]);
  });

  it("leaves the server's count out where its histogram was not read", () => {
    expect(slowRequests([30], undefined)).toEqual([
      { overMs: 10, generator: 1 },
      { overMs: 25, generator: 1 },
    ]);
  });
});
