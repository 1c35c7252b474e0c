import { type Access, isAllowed } from "@vigil/contract";
import { createContext, type ReactNode, useContext, useMemo } from "react";

/**
 * The signed-in user's access groups, as the page gate read them (`GET /users/{username}`), so screens can hide
 * controls the server would refuse. The server still checks every call; this only spares users buttons that
 * can only answer 403. Without a provider nothing beyond `public` is allowed.
 */
const AccessContext = createContext<readonly string[] | undefined>(undefined);

export function AccessProvider({ groups, children }: { groups: readonly string[] | undefined; children: ReactNode }) {
  return <AccessContext.Provider value={groups}>{children}</AccessContext.Provider>;
}

export type AccessCheck = {
  groups: readonly string[] | undefined;
  /** Same rule as the page gate and the server: `isAllowed` from the contract. */
  can: (access: Access) => boolean;
};

export function useAccess(): AccessCheck {
  const groups = useContext(AccessContext);
  return useMemo(() => ({ groups, can: (access: Access) => isAllowed(access, groups) }), [groups]);
}

/** Renders its children only for users whose groups grant `access`. */
export function Can({
  access,
  children,
  fallback = null,
}: {
  access: Access;
  children: ReactNode;
  fallback?: ReactNode;
}) {
  return useAccess().can(access) ? children : fallback;
}
