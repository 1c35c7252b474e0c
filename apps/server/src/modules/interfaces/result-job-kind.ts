import { z } from "zod";

/** The `hl7-result` kind's name and payload, apart from its handler so the signing side can enqueue it. */
export const resultJobKind = { kind: "hl7-result", payload: z.object({ messageId: z.uuid() }) };
