import type { Hl7MessageListQuery } from "@vigil/contract";

/**
 * The message log's cache keys (its own file: the profile screens of this feature keep theirs). A replay refreshes
 * everything under `all`: the list gains a row, the replayed message may have changed.
 */
export const messageLogKeys = {
  all: () => ["hl7-messages"] as const,
  list: (query: Hl7MessageListQuery) => [...messageLogKeys.all(), "list", query] as const,
  detail: (messageId: string) => [...messageLogKeys.all(), "detail", messageId] as const,
};
