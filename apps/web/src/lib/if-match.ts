import { versionEtag } from "@vigil/contract";

// Apart from `api-paths.ts`, which the signed-in shell needs: the contract writes `versionEtag` beside the clients'
// schemas, and a bundler keeps a whole module of top-level schema calls for one function of it.

/** `If-Match` carries the version read, as the strong ETag the server sends with `GET` (`"3"`). */
export function ifMatch(version: number): Record<string, string> {
  return { "If-Match": versionEtag(version) };
}
