import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import type { MessageService } from "../../messaging/message-service.js";
import { loadLinkSecret } from "./link-tokens.js";

/** What the critical-finding services and jobs share: settings, the message service, the links' key. */

export type FindingSettings = Pick<Config, "publicUrl" | "findings" | "identityLimits">;

export type FindingsContext = {
  db: Db;
  settings: FindingSettings;
  messages: MessageService;
  /** The key links are signed with, the same on every instance (`server_secrets`). */
  linkSecret: Buffer;
};

export async function createFindingsContext(
  db: Db,
  settings: FindingSettings,
  messages: MessageService,
): Promise<FindingsContext> {
  return { db, settings, messages, linkSecret: await loadLinkSecret(db) };
}
