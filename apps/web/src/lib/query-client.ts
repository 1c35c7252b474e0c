import { QueryClient } from "@tanstack/react-query";

/** A 401 from a query or a write ends the session in one place, whoever made the call (app/session-refresh.ts). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Every failure is already on screen through the error list; silent retries would repeat it.
        retry: false,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
