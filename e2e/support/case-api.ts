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

  async client(code: string): Promise<{ id: string; name: string; timezone: string }> {
    const list = await this.call<{ items: { id: string; code: string; name: string; timezone: string }[] }>(
      "GET",
      `/clients?search=${code}`,
    );
    const found = list.data.items.find((client) => client.code === code);
    if (!found) throw new Error(`No client with code ${code}`);
    return { id: found.id, name: found.name, timezone: found.timezone };
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

  /**
   * A new revision of the client's protocol, the current one with the critical-finding window changed: cases that
   * start monitoring afterwards pin it.
   */
  async setCriticalFindingWindow(clientCode: string, withinMinutes: number): Promise<void> {
    const clientId = await this.clientIdByCode(clientCode);
    const protocol = await this.call<{ current: Record<string, unknown> & { revision: number } }>(
      "GET",
      `/clients/${clientId}/protocol`,
    );
    const {
      id: _id,
      clientId: _client,
      revision,
      changeNote: _note,
      author: _author,
      createdAt: _at,
      ...content
    } = protocol.data.current;
    const critical = content.criticalNotification as { notify: string; withinMinutes: number };
    await this.call("POST", `/clients/${clientId}/protocol/revisions`, {
      ...content,
      criticalNotification: { ...critical, withinMinutes },
      baseRevision: revision,
      changeNote: `Critical findings must be acknowledged within ${withinMinutes} min`,
    });
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

  /** A finished time log on the case (technologist's work as the calling user), e.g. a monitoring segment. */
  async logTime(
    caseId: string,
    log: {
      mode: "unmonitored" | "intermittent" | "continuous";
      video: boolean;
      startedAt: Date;
      endedAt: Date;
      channels: number;
    },
  ): Promise<void> {
    await this.call("POST", `/cases/monitoring/${caseId}/time-logs`, {
      activity: "monitoring",
      mode: log.mode,
      video: log.video,
      billable: true,
      channels: log.channels,
      startedAt: log.startedAt.toISOString(),
      endedAt: log.endedAt.toISOString(),
      notes: "",
    });
  }

  /** A reviewer's signed final interpretation covering the recording (the precondition of preview → reviewed). */
  async signInterpretation(caseId: string, period: { from: Date; to: Date }): Promise<void> {
    const created = await this.call<{ id: string; revision: number }>(
      "POST",
      `/cases/monitoring/${caseId}/interpretations`,
      {
        reportType: "daily",
        periodFrom: period.from.toISOString(),
        periodTo: period.to.toISOString(),
        history: "Altered mental status.",
        technicalDescription: "21-channel recording with video.",
        impression: "Normal for age; no epileptiform discharges.",
        clinicalCorrelation: "",
      },
    );
    await this.call("POST", `/cases/monitoring/${caseId}/interpretations/${created.data.id}/revisions`, {
      change: "sign",
      baseRevision: created.data.revision,
    });
  }

  /** Requests a move of the case (the caller must be allowed to make it). */
  async moveTo(caseId: string, to: string): Promise<void> {
    await this.call("POST", `/cases/${caseId}/transitions`, { to });
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
