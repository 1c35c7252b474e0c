import type { FastifyRequest } from "fastify";
import type { Actor } from "../audit/audited-write.js";
import type { Principal } from "./principal.js";

/** The caller of a request as the actor of the writes it makes. */
export function actorOf(principal: Principal, request: FastifyRequest): Actor {
  return {
    sub: principal.sub,
    username: principal.username,
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  };
}
