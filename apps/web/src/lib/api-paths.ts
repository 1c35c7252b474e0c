import type { RouteDefinition } from "@vigil/contract";

/**
 * The API path of a contract route, relative to `/api` as `apiRequest` wants it, with its `:params` filled in:
 * paths are written once, in the contract's route table.
 */
export function apiPath(route: Pick<RouteDefinition, "path">, params: Record<string, string> = {}): string {
  const filled = route.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${route.path}`);
    return encodeURIComponent(value);
  });
  return filled.replace(/^\/api(?=\/)/, "");
}
