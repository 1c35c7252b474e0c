import { type SmartPermission, smartPermissions, smartScopePattern } from "@vigil/contract";

/**
 * SMART v2 system scopes (`system/DiagnosticReport.rs`) as sets: parse, intersect what was asked with what was
 * granted, and answer whether a set allows one interaction. SMART v1 names (`.read`, `.write`, `.*`) are not
 * accepted: registrations are written in v2, and a v1 request is refused as an invalid scope.
 */
export type SmartScope = { resourceType: string; permissions: Set<SmartPermission> };

export function parseSmartScope(text: string): SmartScope | undefined {
  const match = smartScopePattern.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  return { resourceType: match[1], permissions: new Set(match[2].split("") as SmartPermission[]) };
}

export function formatSmartScope(scope: SmartScope): string {
  return `system/${scope.resourceType}.${smartPermissions.filter((p) => scope.permissions.has(p)).join("")}`;
}

/** The permissions `granted` gives on `resourceType`, a `system/*` grant included. */
function permissionsOn(granted: readonly SmartScope[], resourceType: string): Set<SmartPermission> {
  const permissions = new Set<SmartPermission>();
  for (const scope of granted) {
    if (scope.resourceType === "*" || scope.resourceType === resourceType) {
      for (const permission of scope.permissions) permissions.add(permission);
    }
  }
  return permissions;
}

/**
 * Granted ∩ requested, scope by scope: `system/Task.cru` asked with `system/Task.rs` registered gives `system/Task.r`;
 * a request for `system/*.rs` gives it only where a `system/*` grant does. A requested scope whose intersection is
 * empty is left out. Throws on a requested scope that is not a SMART v2 system scope (the caller's `invalid_scope`).
 */
export function intersectScopes(requested: readonly string[], granted: readonly string[]): string[] {
  const grants = granted.map(parseSmartScope).filter((scope): scope is SmartScope => scope !== undefined);
  const result: string[] = [];
  for (const text of requested) {
    const asked = parseSmartScope(text);
    if (!asked) throw new InvalidScopeError(text);
    const available =
      asked.resourceType === "*"
        ? permissionsOn(
            grants.filter((scope) => scope.resourceType === "*"),
            "*",
          )
        : permissionsOn(grants, asked.resourceType);
    const permissions = new Set([...asked.permissions].filter((permission) => available.has(permission)));
    if (permissions.size === 0) continue;
    const scope = formatSmartScope({ resourceType: asked.resourceType, permissions });
    if (!result.includes(scope)) result.push(scope);
  }
  return result;
}

export class InvalidScopeError extends Error {
  constructor(readonly scope: string) {
    super(`${JSON.stringify(scope.slice(0, 100))} is not a SMART v2 system scope (e.g. system/DiagnosticReport.rs)`);
    this.name = "InvalidScopeError";
  }
}

/** Whether the scopes a token carries allow `permission` on `resourceType`. */
export function scopesAllow(scopes: readonly string[], resourceType: string, permission: SmartPermission): boolean {
  const parsed = scopes.map(parseSmartScope).filter((scope): scope is SmartScope => scope !== undefined);
  return permissionsOn(parsed, resourceType).has(permission);
}
