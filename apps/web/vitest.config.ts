import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  define: { __BUILD_ID__: JSON.stringify("test-build") },
  test: {
    name: "web",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./src/test/setup.ts"],
    // Screens that mount the Amplify Authenticator or long MUI forms take seconds in jsdom on a 2-core machine
    // under load (CI runs the server's tests beside them); 5 s made those tests fail by the clock, not by a bug, and
    // 15 s did on the slower machines of the kind (half the speed per core). A limit that only catches a hang.
    testTimeout: 40_000,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
