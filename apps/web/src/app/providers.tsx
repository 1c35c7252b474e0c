import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { AppGlobalStyles } from "../components/layouts/global-styles";
import { theme } from "../config/theme";

/** Everything every screen relies on; tests render pages inside the same providers. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <AppGlobalStyles />
        {children}
      </ThemeProvider>
    </QueryClientProvider>
  );
}
