import type { AccessGroup, Permission } from "@vigil/contract";

/** Who is calling: established from the verified ID token and the user's current row. */
export type Principal = {
  sub: string;
  username: string;
  groups: AccessGroup[];
  permissions: Set<Permission>;
  originJti: string;
};

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | undefined;
  }
}
