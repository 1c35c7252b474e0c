import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../testing/test-app.js";
import { MessageService, maskDestination } from "./message-service.js";

const silentLog = { info: () => undefined } as never;
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.drop());

describe("message delivery", () => {
  it("keeps messages in the outbox when no transport is configured", async () => {
    const service = new MessageService(
      database.database.db,
      { smtpUrl: undefined, mailFrom: "x@y.z", smsWebhookUrl: undefined },
      silentLog,
    );
    await service.send({ channel: "email", to: "ana@example.org", subject: "Your code", body: "Code 123456" });
    await service.send({ channel: "sms", to: "+15555550100", subject: "Your code", body: "Code 654321" });
    expect(service.transportFor("email")).toBe("outbox");
    const mail = await service.listOutbox({ recipient: "ana@example.org" });
    expect(mail.map(({ channel, subject, body }) => ({ channel, subject, body }))).toEqual([
      { channel: "email", subject: "Your code", body: "Code 123456" },
    ]);
    expect((await service.listOutbox({ channel: "sms" }))[0]?.body).toBe("Code 654321");
  });

  it("sends email through a real SMTP server when SMTP_URL is set, marked as automatic mail", async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        let data = "";
        stream.on("data", (chunk) => {
          data += chunk.toString();
        });
        stream.on("end", () => {
          received.push(data);
          callback();
        });
      },
    });
    server.listen(0, "127.0.0.1");
    await once(server.server, "listening");
    const port = (server.server.address() as AddressInfo).port;
    try {
      const service = new MessageService(
        database.database.db,
        { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: "Vigil <no-reply@vigil.test>", smsWebhookUrl: undefined },
        silentLog,
      );
      expect(service.transportFor("email")).toBe("smtp");
      expect(await service.verifyMailTransport()).toBe(true);
      await service.send({
        channel: "email",
        to: "sam@example.org",
        subject: "Welcome to Vigil",
        body: "Temporary password: abc",
      });
      expect(received).toHaveLength(1);
      expect(received[0]).toContain("Subject: Welcome to Vigil");
      // RFC 3834: no vacation responder answers it.
      expect(received[0]).toMatch(/^Auto-Submitted: auto-generated\r?$/m);
      expect(received[0]).toContain("Temporary password: abc");
      expect(await service.listOutbox({ recipient: "sam@example.org" })).toEqual([]);
    } finally {
      server.close();
    }
  });
});

describe("destination masking", () => {
  it("shows the first and last character of an email's local part", () => {
    expect(maskDestination("email", "jordan@example.org")).toBe("j***n@example.org");
    expect(maskDestination("email", "a@example.org")).toBe("a***@example.org");
  });

  it("shows the last 4 digits of a phone number", () => {
    expect(maskDestination("sms", "+15555550123")).toBe("+*******0123");
  });
});
