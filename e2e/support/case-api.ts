import { signInThroughApi } from "./identity-api.js";

type Answer<T> = { status: number; data: T; etag: string | null };

/**
 * A signed-in user's calls to the case API, for a journey's givens only (a case already in monitoring, say),
 * never for the steps it asserts.
 */
export class CaseApi {
  private constructor(
    private readonly baseURL: string,
    private readonly idToken: string,
  ) {}

  static async signIn(
    baseURL: string,
    clientId: string,
    credential: { username: string; password: string },
  ): Promise<CaseApi> {
    const { idToken } = await signInThroughApi(baseURL, clientId, credential);
    return new CaseApi(baseURL, idToken);
  }

  private async call<T>(method: string, path: string, body?: unknown, ifMatch?: string): Promise<Answer<T>> {
    const response = await fetch(`${this.baseURL}/api/continuous-monitoring${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.idToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(ifMatch ? { "if-match": ifMatch } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as { data?: T; error?: unknown };
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return { status: response.status, data: answer.data as T, etag: response.headers.get("etag") };
  }

  async clientIdByCode(code: string): Promise<string> {
    const list = await this.call<{ items: { id: string; code: string }[] }>("GET", `/clients?search=${code}`);
    const found = list.data.items.find((client) => client.code === code);
    if (!found) throw new Error(`No client with code ${code}`);
    return found.id;
  }

  async technologistId(username: string): Promise<string> {
    const response = await fetch(`${this.baseURL}/api/users/continuous-monitoring/technologists?limit=200`, {
      headers: { authorization: `Bearer ${this.idToken}` },
    });
    const answer = (await response.json()) as { data: { items: { id: string; username: string }[] } };
    const found = answer.data.items.find((user) => user.username === username);
    if (!found) throw new Error(`No technologist ${username}`);
    return found.id;
  }

  /** A new case for the client, with a technologist assigned and monitoring started (recording from an hour ago). */
  async caseInMonitoring(input: {
    clientCode: string;
    technologist: string;
    mrn: string;
    firstName: string;
    lastName: string;
  }): Promise<{ id: string; caseNumber: string }> {
    const clientId = await this.clientIdByCode(input.clientCode);
    const created = await this.call<{ id: string; caseNumber: string }>("POST", "/cases", {
      clientId,
      studyType: "icu-ceeg",
      hasVideo: true,
      patient: {
        mrn: input.mrn,
        firstName: input.firstName,
        lastName: input.lastName,
        location: { unit: "Neuro ICU" },
      },
    });
    const id = created.data.id;
    await this.call("POST", `/cases/${id}/actions`, {
      action: "assign-technologist",
      technologistId: await this.technologistId(input.technologist),
    });
    await this.call("POST", `/cases/${id}/transitions`, { to: "monitoring" });
    const current = await this.call<{ version: number }>("GET", `/cases/${id}`);
    await this.call(
      "PATCH",
      `/cases/${id}`,
      { recordingStartedAt: new Date(Date.now() - 3600_000).toISOString() },
      `"${current.data.version}"`,
    );
    return { id, caseNumber: created.data.caseNumber };
  }

  /** Sets the recording end to now and moves the case from monitoring to preview. */
  async endMonitoring(caseId: string): Promise<void> {
    const current = await this.call<{ version: number }>("GET", `/cases/${caseId}`);
    await this.call(
      "PATCH",
      `/cases/${caseId}`,
      { recordingEndedAt: new Date().toISOString() },
      `"${current.data.version}"`,
    );
    await this.call("POST", `/cases/${caseId}/transitions`, { to: "preview" });
  }
}
