import { cleanup, configure } from "@testing-library/react";
import { ConsoleLogger } from "aws-amplify/utils";
import { afterEach } from "vitest";
import { clearApiErrors } from "../lib/api-errors";
import { dismissSessionEnd } from "../lib/auth";
import { setIdentityConnection } from "../lib/auth-connection";
import { clearBuildUpdate } from "../lib/build-check";
import { resetEnoch } from "../lib/enoch-tracker";
import { resetReloadState } from "../lib/reload-guard";
import { indexLabelLookups } from "./label-lookups";

// Screens load lazily and Amplify works asynchronously; with the server's tests running beside them on 2 cores a
// screen can take several seconds. A longer wait changes no assertion, only how long a real failure takes to show.
configure({ asyncUtilTimeout: 10_000 });

indexLabelLookups();

// Amplify warns on every configure that the user-pool endpoint is custom; in Vigil it always is.
ConsoleLogger.LOG_LEVEL = "ERROR";

// Vitest runs without globals, so Testing Library cannot register its own cleanup; module stores are reset too.
afterEach(() => {
  cleanup();
  clearApiErrors();
  setIdentityConnection("connected");
  dismissSessionEnd();
  clearBuildUpdate();
  resetEnoch();
  resetReloadState();
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.location.hash = "";
});
