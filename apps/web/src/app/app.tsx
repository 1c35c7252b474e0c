import type { QueryClient } from "@tanstack/react-query";
// From "react-router" itself, not "react-router/dom": under Node (tests) the two entry points load separate
// builds with separate router contexts; the app does not use the flushSync option the dom entry adds.
import { RouterProvider } from "react-router";
import { ConfigGate } from "./config-gate";
import { AppProviders } from "./providers";
import type { AppRouter } from "./router";
import { SessionEvents } from "./session-events";

export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  return (
    <AppProviders queryClient={queryClient}>
      <ConfigGate>
        <SessionEvents router={router} />
        <RouterProvider router={router} />
      </ConfigGate>
    </AppProviders>
  );
}
