import { QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "./api-client";

export type QueryClientOptions = {
  /** Called when the API rejects the token (revoked, user disabled): the session is over. */
  onUnauthorized?: () => void;
};

export function createQueryClient(options: QueryClientOptions = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (error instanceof ApiRequestError && error.body.status === 401) options.onUnauthorized?.();
      },
    }),
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
