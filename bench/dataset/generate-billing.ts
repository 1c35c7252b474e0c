import { randomUUID } from "node:crypto";
import { addMonths, monthOf } from "../../apps/server/src/modules/billing/billing-calendar.js";
import { author, type DatasetContext, day, hour, type Person } from "./dataset-context.js";
import type { CaseFacts } from "./generate-case.js";
import { specs } from "./table-specs.js";
import { type Revision, writeRecord } from "./write-records.js";

/**
 * A client's hourly rates: set 25 months back, raised every 6–12 months; some clients have no rate for recent
 * months. `index` is the client's place in the list (it staggers the moments the rates were set).
 */
export function writeClientRates(
  context: DatasetContext,
  client: { id: string; timezone: string; index: number },
  billers: Person[],
): void {
  const { options, random, now, out } = context;
  const { id, timezone, index } = client;
  const biller = random.pick(billers);
  // One client in nine priced only from two months back: its older months have hours and no rate (flagged).
  const startMonth = addMonths(monthOf(options.now, timezone), index % 9 === 4 ? -2 : -25);
  let month = startMonth;
  let rate = random.int(120, 180);
  let previous: string | null = null;
  const lastMonth = monthOf(options.now, timezone);
  while (month <= lastMonth) {
    const hourlyRate = rate.toFixed(2);
    // Set about a week before the month began.
    const setAt = new Date(now - (rateMonths(month, lastMonth) + 1) * 30 * day + index * hour);
    out.row(specs.rates, [id, month, hourlyRate, 1, setAt, biller.sub, biller.username, biller.name]);
    out.row(specs.rateChanges, [
      randomUUID(),
      id,
      month,
      hourlyRate,
      previous,
      1,
      false,
      null,
      setAt,
      biller.sub,
      biller.username,
      biller.name,
    ]);
    previous = hourlyRate;
    rate += random.int(3, 12);
    month = addMonths(month, random.int(6, 12));
  }
}

/** A reviewed case's billing note (every closed case has one, half the others), a third of them edited. */
export function writeBillingNote(context: DatasetContext, facts: CaseFacts, billers: Person[]): void {
  const { random } = context;
  const { caseId, reviewedAt, closedAt } = facts;
  if (reviewedAt !== null && (closedAt !== null || random.chance(0.5))) {
    const biller = random.pick(billers);
    const at = reviewedAt + random.between(1, 20) * hour;
    const data = {
      body: "Continuous video-EEG with real-time monitoring; summary report signed.",
      cptCodes: [
        { code: "95700", units: 1, modifiers: [] },
        { code: "95716", units: 1, modifiers: [] },
      ],
      adjustments: "",
      acknowledgedWarnings: [],
    };
    const revisions: Revision[] = [{ change: "create", data, at, author: author(biller) }];
    if (random.chance(0.3)) {
      revisions.push({
        change: "edit",
        data: { ...data, cptCodes: [...data.cptCodes, { code: "95720", units: 1, modifiers: [] }] },
        at: at + hour,
        author: author(biller),
      });
    }
    writeRecord(context, caseId, "billing-note", revisions);
  }
}

function rateMonths(from: string, to: string): number {
  const [fromYear, fromMonth] = from.split("-").map(Number) as [number, number];
  const [toYear, toMonth] = to.split("-").map(Number) as [number, number];
  return (toYear - fromYear) * 12 + (toMonth - fromMonth);
}
