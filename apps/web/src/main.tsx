import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { createAppRouter, pageComponents } from "./app/router";
import { listenForChunkLoadErrors } from "./lib/chunk-errors";
import { createQueryClient } from "./lib/query-client";
import { hasStoredSession } from "./lib/stored-session";

listenForChunkLoadErrors();

// Signed out, the sign-in screen comes first: fetch its chunk (the biggest) while /api/config loads, not after.
if (!hasStoredSession(window.localStorage)) void pageComponents.signin().catch(() => undefined);

// A 401 from any API call ends the session here too (app/session-refresh.ts), queries and writes alike.
const queryClient = createQueryClient();
const router = createAppRouter();

const container = document.getElementById("root");
if (!container) throw new Error("index.html lacks #root");

createRoot(container).render(
  <StrictMode>
    <App router={router} queryClient={queryClient} />
  </StrictMode>,
);
