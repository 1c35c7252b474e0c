import { sharedKeys } from "../../../api/query-keys";

/**
 * The interface profile's cache keys, under the client's detail key so that archiving or restoring the client
 * (which refreshes everything under it) refreshes the profile too. The message log keeps its own keys file.
 */
export const profileKeys = {
  profile: (clientId: string) => [...sharedKeys.clientDetail(clientId), "interface-profile"] as const,
};
