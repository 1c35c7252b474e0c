import type { FastifyInstance } from "fastify";
import { AppError } from "../errors/app-error.js";
import { decodeUtf8, malformedUtf8Message } from "./unstorable-text.js";

/**
 * JSON bodies (`application/json`, whatever charset they claim: JSON is UTF-8) are decoded strictly before Fastify's
 * own parser (with its prototype-poisoning checks) reads them, so malformed UTF-8 is a 400 naming the body instead
 * of U+FFFD stored in the client's text.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    const text = decodeUtf8(body as Buffer);
    if (text === undefined) {
      done(
        new AppError("bad_request", `Invalid request: body ${malformedUtf8Message}`, {
          issues: [{ path: "body", message: malformedUtf8Message }],
        }),
        undefined,
      );
      return;
    }
    parseJson(request, text, done);
  });
}
