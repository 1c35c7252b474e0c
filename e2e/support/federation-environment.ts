import { execFile, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { get as httpsGet } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot, resultsDir } from "./environment.js";
import { findFreePort } from "./global-setup.js";
import { stopServer } from "./stop-server.js";

const run = promisify(execFile);

/** Accounts of the local provider that plays Google, by the login typed into its form. */
export const providerAccounts = {
  /** The seeded coordinator's address (apps/server/src/seed/seed-demo-data.ts), verified by the provider. */
  coordinator: { login: "casey.google", email: "coordinator@vigil.example", emailVerified: true, name: "Casey C." },
  /** An address no Vigil user has. */
  stranger: {
    login: "stranger.google",
    email: "stranger@elsewhere.example",
    emailVerified: true,
    name: "Sam Stranger",
  },
} as const;

export type FederationEnvironment = {
  /** The web app (plain HTTP, as in development). */
  baseURL: string;
  /** `https://127.0.0.1:<port>`: the hosted UI on Vigil's own HTTPS listener, with a throwaway certificate. */
  hostedUiOrigin: string;
  providerIssuer: string;
  stop: () => Promise<void>;
};

/**
 * A Vigil of its own for the federated journeys: a fresh embedded database with the demo users, federation
 * configured against a local OpenID Connect provider (oidc-provider, run by the server's test tooling), and the
 * hosted UI served over HTTPS — Amplify only ever calls `https://<domain>` — with a self-signed certificate made
 * for this run with Debian's openssl.
 */
export async function startFederationEnvironment(): Promise<FederationEnvironment> {
  const workDir = mkdtempSync(path.join(tmpdir(), "vigil-e2e-federation-"));
  const started: number[] = [];
  const stop = async () => {
    for (const pid of started.reverse()) await stopServer(pid);
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    const [port, httpsPort, providerPort] = [await findFreePort(), await findFreePort(), await findFreePort()];
    const certificate = await createThrowawayCertificate(workDir);
    const hostedUiDomain = `127.0.0.1:${httpsPort}`;
    const hostedUiOrigin = `https://${hostedUiDomain}`;
    const clientId = "vigil-e2e";
    const clientSecret = `secret-${Date.now()}`;
    mkdirSync(resultsDir, { recursive: true });

    const providerLog = path.join(resultsDir, "e2e-federation-provider.log");
    const provider = startProcess(
      [
        "src/identity/federation/testing/local-provider-command.ts",
        JSON.stringify({
          clientId,
          clientSecret,
          port: providerPort,
          redirectUris: [`${hostedUiOrigin}/oauth2/idpresponse`],
          accounts: Object.fromEntries(
            Object.values(providerAccounts).map(({ login, ...account }) => [login, account]),
          ),
        }),
      ],
      process.env,
      providerLog,
    );
    started.push(provider.pid);
    const providerIssuer = `http://127.0.0.1:${providerPort}`;
    await waitUntilAnswering(`${providerIssuer}/.well-known/openid-configuration`, provider.exitCode, providerLog);

    const baseURL = `http://127.0.0.1:${port}`;
    const serverEnv: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: path.join(workDir, "data"),
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseURL,
      SEED: "demo",
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "info",
      OIDC_ISSUER: providerIssuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_PROVIDER_NAME: "Google",
      HOSTED_UI_DOMAIN: hostedUiDomain,
      TLS_CERT_FILE: certificate.certFile,
      TLS_KEY_FILE: certificate.keyFile,
      HTTPS_PORT: String(httpsPort),
    };
    delete serverEnv.DATABASE_URL;
    const serverLog = path.join(resultsDir, "e2e-federation-server.log");
    const server = startProcess(["src/server.ts"], serverEnv, serverLog);
    started.push(server.pid);
    await waitUntilAnswering(`${baseURL}/api/health`, server.exitCode, serverLog);
    // The HTTPS listener starts right after the HTTP one.
    await waitUntilAnswering(`${hostedUiOrigin}/api/health`, server.exitCode, serverLog);
    return { baseURL, hostedUiOrigin, providerIssuer, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** tsx in apps/server, detached so that stopping its process group stops node too; output to a log file. */
function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  log: string,
): { pid: number; exitCode: () => number | null | undefined } {
  const logFd = openSync(log, "w");
  const child = spawn(path.join(repoRoot, "node_modules", ".bin", "tsx"), args, {
    cwd: path.join(repoRoot, "apps", "server"),
    env,
    stdio: ["ignore", logFd, logFd],
    detached: true,
  });
  closeSync(logFd);
  child.unref();
  if (!child.pid) throw new Error(`Could not start tsx ${args[0]}`);
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  return { pid: child.pid, exitCode: () => exited };
}

async function createThrowawayCertificate(directory: string): Promise<{ certFile: string; keyFile: string }> {
  const certFile = path.join(directory, "hosted-ui-cert.pem");
  const keyFile = path.join(directory, "hosted-ui-key.pem");
  const openssl = ["/usr/bin/openssl", "/bin/openssl"].find((candidate) => existsSync(candidate)) ?? "openssl";
  try {
    await run(openssl, [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ]);
  } catch (error) {
    throw new Error(
      `Could not make a throwaway TLS certificate with openssl (apt-get install -y openssl): ${(error as Error).message}`,
    );
  }
  return { certFile, keyFile };
}

/** Polls `url` until it answers 200 (HTTPS with the throwaway certificate accepted), or the process exits. */
async function waitUntilAnswering(url: string, exitCode: () => number | null | undefined, log: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  let problem = "no answer yet";
  while (Date.now() < deadline) {
    if (exitCode() !== undefined) {
      throw new Error(`The process exited (code ${exitCode()}) before ${url} answered. Its log:\n${tail(log)}`);
    }
    try {
      const status = url.startsWith("https:")
        ? await insecureStatus(url)
        : (await fetch(url, { signal: AbortSignal.timeout(5_000) })).status;
      if (status === 200) return;
      problem = `${url} answered ${status}`;
    } catch (error) {
      problem = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within 90 s (${problem}). Log:\n${tail(log)}`);
}

function insecureStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpsGet(url, { rejectUnauthorized: false, timeout: 5_000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once("error", reject);
    request.once("timeout", () => request.destroy(new Error(`${url} did not answer within 5 s`)));
  });
}

function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-40).join("\n");
  } catch {
    return "(no log)";
  }
}
