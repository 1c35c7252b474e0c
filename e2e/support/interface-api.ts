import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { signInThroughApi } from "./identity-api.js";

const run = promisify(execFile);

/**
 * A journey's givens for the hospital interface: an administrator's calls that make a client with an interface
 * profile, and the hospital's side played by Debian's python3-hl7 (`mllp_send`), which the team did not write.
 */
export class InterfaceApi {
  private constructor(
    private readonly baseURL: string,
    private readonly idToken: string,
  ) {}

  static async signIn(baseURL: string, clientId: string, credential: { username: string; password: string }) {
    const { idToken } = await signInThroughApi(baseURL, clientId, credential);
    return new InterfaceApi(baseURL, idToken);
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseURL}/api/continuous-monitoring${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.idToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as { data?: T; error?: unknown };
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer.data as T;
  }

  /** A new active client whose interface profile names `identity` as its hospital's MSH-3/MSH-4. */
  async clientWithInterface(
    name: string,
    code: string,
    identity: { sendingApplication: string; sendingFacility: string; mrnAssigningAuthority: string },
  ): Promise<{ id: string }> {
    const client = await this.call<{ id: string }>("POST", "/clients", {
      name,
      code,
      timezone: "America/Chicago",
      phone: "+13125550100",
      city: "Chicago",
      region: "IL",
      country: "US",
    });
    await this.call("POST", `/clients/${client.id}/interface-profile/revisions`, {
      baseRevision: null,
      enabled: true,
      ...identity,
      visitNumberSource: "PV1-19",
      receivingApplication: "EPICCARE",
      receivingFacility: identity.sendingFacility,
      destination: null,
      resultStyle: "ORU^R01",
      hl7Version: "2.5.1",
      orderStatusUpdates: false,
      changeNote: "Interface journey",
    });
    return client;
  }
}

const folder = mkdtempSync(path.join(tmpdir(), "vigil-e2e-hl7-"));

/** Sends one message (segments on lines) with `mllp_send --loose`; returns the ACK it printed. */
export async function mllpSend(port: number, message: string): Promise<string> {
  const file = path.join(folder, `message-${Date.now().toString(36)}.hl7`);
  writeFileSync(file, `${message.trim()}\n`);
  const { stdout } = await run("/usr/bin/mllp_send", ["--loose", "-f", file, "-p", String(port), "127.0.0.1"], {
    timeout: 15_000,
  });
  return stdout.trim();
}
