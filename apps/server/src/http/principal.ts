import type { AccessGroup, Permission } from "@vigil/contract";

/** Who is calling: established from the verified ID token and the user's current row. */
export type Principal = {
  sub: string;
  username: string;
  /** Shared by the requests of one unchanged sign-in: never changed in place. */
  groups: readonly AccessGroup[];
  permissions: ReadonlySet<Permission>;
  originJti: string;
};

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | undefined;
  }
}
