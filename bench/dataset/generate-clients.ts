import { randomUUID } from "node:crypto";
import { type ProtocolContent, protocolContentSchema } from "@vigil/contract";
import { type ClientInfo, type DatasetContext, day, hour } from "./dataset-context.js";
import { writeClientRates } from "./generate-billing.js";
import type { Population } from "./generate-users.js";
import { specs } from "./table-specs.js";
import { cities, firstNames, hospitalKinds, lastNames } from "./vocabulary.js";

/** Clients: time zones, protocol revisions, contacts, links, rates with their history. */
export function generateClients(context: DatasetContext, population: Population): ClientInfo[] {
  const { random, now, out } = context;
  const { coordinators, billers } = population;
  // Never fewer than 50: the tenth is a tenth of the history, not of the customers, so a page of the clients list
  // (50) is as full in both sets and its growth measures the history (it measured the page: 5 rows against 50).
  const clientCount = Math.max(50, context.scaled(50, 2));
  const clientInfos: ClientInfo[] = [];
  const history = 760 * day;
  for (let index = 0; index < clientCount; index++) {
    const [city, region, timezone] = cities[index % cities.length] as (typeof cities)[number];
    const kind = hospitalKinds[Math.floor(index / cities.length) % hospitalKinds.length] as string;
    const name = `${city} ${kind}${index >= cities.length * hospitalKinds.length ? ` ${index}` : ""}`;
    const code = `${city
      .replace(/[^A-Za-z]/g, "")
      .slice(0, 4)
      .toUpperCase()}${index + 1}`;
    const archived = clientCount >= 10 && index === clientCount - 1;
    const inactive = clientCount >= 10 && index === clientCount - 2;
    const createdAt = now - history - random.between(0, 60) * day;
    const id = randomUUID();
    out.row(specs.clients, [
      id,
      name,
      code,
      inactive ? "inactive" : "active",
      timezone,
      `+1555${String(1_000_000 + index).slice(-7)}`,
      `${100 + index} Hospital Drive`,
      city,
      region,
      String(10_000 + index * 37),
      "US",
      null,
      archived ? new Date(now - 5 * day) : null,
      archived ? 3 : 1,
      new Date(createdAt),
      new Date(archived ? now - 5 * day : createdAt),
    ]);
    const info: ClientInfo = {
      id,
      name,
      code,
      timezone,
      archived,
      protocols: [],
      contacts: [],
      // A few large clients, many small ones (cases are spread by weight).
      weight: 1 / (1 + index * 0.08),
    };
    const revisionCount = random.int(1, 4);
    for (let revision = 1; revision <= revisionCount; revision++) {
      const at = createdAt + (revision - 1) * (history / revisionCount) + hour;
      const threshold = random.pick([5, 10, 10, 15]);
      const protocol: ProtocolContent = protocolContentSchema.parse({
        instructions: `Protocol revision ${revision} for ${name}: full 10–20 montage, impedances every ${
          8 + revision * 4
        } hours, skin checks daily.`,
        impedanceThresholdKohm: threshold,
        impedanceCheckIntervalHours: 8 + revision * 4,
        reviewTurnaroundHours: 12,
        // A fixed value: drawing it would shift every later random draw of the dataset.
        statAcknowledgeMinutes: 30,
        criticalNotification: { notify: "Charge nurse, then the neurologist on call", withinMinutes: 15 },
        transferForm: {
          title: "Transfer into continuous EEG monitoring",
          instructions: "Complete every required field and send it with the order.",
          fields: [
            { key: "patientName", label: "Patient name (last, first)", type: "text", required: true },
            { key: "mrn", label: "Medical record number (MRN)", type: "text", required: true },
            { key: "dateOfBirth", label: "Date of birth", type: "date", required: true },
            { key: "bedUnit", label: "Unit and bed", type: "text", required: true },
          ],
        },
      });
      const protocolId = randomUUID();
      const coordinator = random.pick(coordinators);
      out.row(specs.protocols, [
        protocolId,
        id,
        revision,
        protocol.instructions,
        protocol.impedanceThresholdKohm.toFixed(2),
        protocol.impedanceCheckIntervalHours,
        protocol.reviewTurnaroundHours,
        protocol.statAcknowledgeMinutes,
        protocol.criticalNotification.notify,
        protocol.criticalNotification.withinMinutes,
        protocol.transferForm,
        revision === 1 ? "Initial protocol" : "Thresholds reviewed with the medical director",
        coordinator.sub,
        coordinator.username,
        coordinator.name,
        new Date(at),
      ]);
      info.protocols.push({ id: protocolId, at, thresholdKohm: threshold });
    }
    const contactCount = random.int(2, 4);
    for (let contact = 0; contact < contactCount; contact++) {
      const contactId = randomUUID();
      const contactName = `${contact === 0 ? "Dr. " : ""}${random.pick(firstNames)} ${random.pick(lastNames)}`;
      out.row(specs.contacts, [
        contactId,
        id,
        contactName,
        contact === 0 ? "Director, Neurocritical Care" : "Charge nurse",
        `contact${contact}@${code.toLowerCase()}.example`,
        `+1555${String(2_000_000 + index * 10 + contact).slice(-7)}`,
        contact === 0,
        contact < 2,
        1,
        new Date(createdAt),
        new Date(createdAt),
      ]);
      info.contacts.push({ id: contactId, name: contactName });
    }
    out.row(specs.links, [
      randomUUID(),
      id,
      "Bed board",
      `https://intranet.${code.toLowerCase()}.example/beds`,
      "Current bed assignments.",
      1,
      new Date(createdAt),
      new Date(createdAt),
    ]);
    // Written with its client, not after all of them: the rates' draws sit between this client's and the next's.
    writeClientRates(context, { id, timezone, index }, billers);
    clientInfos.push(info);
  }
  return clientInfos;
}
