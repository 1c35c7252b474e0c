import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { type PageDefinition, pageList } from "@vigil/contract";
import type { ComponentType } from "react";
import { createMemoryRouter, Outlet, type RouteObject, RouterProvider } from "react-router";
import { AccessProvider } from "../components/access/access-context";
import { ApiErrorStack } from "../components/feedback/api-error-stack";
import { theme } from "../config/theme";
import { configureAuth } from "../lib/auth";
import { createQueryClient } from "../lib/query-client";
import { type Handler, installFetch, storeSignedInTokens, testConfig } from "./fake-server";

export type ScreenOptions = { groups?: string[]; routes?: Record<string, Handler>; username?: string };

/**
 * Renders `routes` (plus a catch-all "Elsewhere", so a navigation away can be asserted) at `path`, for a signed-in
 * user in `groups`, against a fake server at the fetch boundary: everything above it — API client, TanStack
 * Query, router — is the real code.
 */
export function renderWithRoutes(
  path: string,
  routes: RouteObject[],
  { groups = [], routes: handlers = {}, username = "alice" }: ScreenOptions = {},
) {
  // Without federation, Amplify is configured before the first await; nothing is left to wait for.
  void configureAuth(testConfig);
  storeSignedInTokens(username, groups);
  const network = installFetch(handlers);
  const queryClient = createQueryClient();
  // The error list sits in the layout around the screens, inside the router, as in the app's layouts.
  const layout: RouteObject = {
    element: (
      <>
        <ApiErrorStack />
        <Outlet />
      </>
    ),
    children: [...routes, { path: "*", element: <p>Elsewhere</p> }],
  };
  const router = createMemoryRouter([layout], { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <AccessProvider groups={groups}>
          <RouterProvider router={router} />
        </AccessProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, ...network, router, queryClient, location };
}

/** A feature's screens (by page id) on their page-table routes; see `renderWithRoutes`. */
export function renderPageScreens(path: string, screens: Record<string, ComponentType>, options: ScreenOptions = {}) {
  const routes = (pageList as readonly PageDefinition[])
    .filter((page) => page.id in screens)
    .map((page) => {
      const Screen = screens[page.id] as ComponentType;
      return { path: page.path, element: <Screen /> };
    });
  return renderWithRoutes(path, routes, options);
}
