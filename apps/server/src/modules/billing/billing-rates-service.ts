import type { ClientMonthRate, SetRateRequest, setRateRequestSchema } from "@vigil/contract";
import type { z } from "zod";
import { auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { addMonths, currentMonth } from "./billing-calendar.js";
import { normalizeRate } from "./billing-money.js";
import { findRate, findRatesOfClients, insertRateChange, saveRate } from "./billing-repository.js";
import {
  type BillingActor,
  badRequest,
  rateMonthsAhead,
  requireBillingClient,
  toClientMonthRate,
} from "./billing-service.js";
import { findStatementNumbers } from "./billing-statements-repository.js";

type RateRequest = z.output<typeof setRateRequestSchema>;

/* Rates: a client month's own rate, set under the client's lock, with a reason once an issued month is reached. */

/**
 * The issued months whose rate a new own rate for `month` sets: `month` itself and the later months that inherit
 * from it (up to the next month with a rate of its own).
 */
export function issuedMonthsReached<T extends { month: string }>(
  month: string,
  ownRates: readonly { month: string }[],
  issued: readonly T[],
): T[] {
  const nextOwn = ownRates
    .map((rate) => rate.month)
    .filter((candidate) => candidate > month)
    .sort()[0];
  return issued
    .filter((statement) => statement.month >= month && (nextOwn === undefined || statement.month < nextOwn))
    .sort((left, right) => left.month.localeCompare(right.month));
}

/**
 * `POST …/{client}/{month}/rate`: in one transaction, under a lock on the client row (so two changes of one
 * client's rates run one after the other): the named base version must be the month's current one (null: none
 * yet), a reason is required when the change reaches an issued month (issuedMonthsReached), then the month's own
 * rate is written (version + 1), the change appended to the history and the audit event recorded. Months more
 * than a year ahead are refused: a typo such as 2062 for 2026 would otherwise silently price a month nobody
 * looks at.
 */
export async function setBillingRate(
  db: Db,
  clientId: string,
  month: string,
  request: RateRequest | SetRateRequest,
  actor: BillingActor,
  now = new Date(),
): Promise<ClientMonthRate> {
  const reason = request.reason?.trim() || null;
  const hourlyRate = normalizeRate(request.hourlyRate);
  return db.transaction(async (tx) => {
    const client = await requireBillingClient(tx, clientId, "no key update");
    const latest = addMonths(currentMonth(client.timezone, now), rateMonthsAhead);
    if (month > latest) {
      throw badRequest([
        { path: "params.month", message: `must be at most ${rateMonthsAhead} months ahead (${latest} or earlier)` },
      ]);
    }
    const current = await findRate(tx, clientId, month, "update");
    if ((current?.version ?? null) !== request.baseVersion) {
      throw new AppError(
        "conflict",
        current
          ? `The rate of ${month} for ${client.name} was changed by ${current.setByName ?? current.setByUsername}: it is ${current.hourlyRate} (version ${current.version}), and you based your change on ${request.baseVersion === null ? "no rate" : `version ${request.baseVersion}`}. Review it and set the rate again.`
          : `${month} has no rate of its own for ${client.name} yet (you based your change on version ${request.baseVersion}). Review it and set the rate again.`,
        { current: current ? toClientMonthRate(current) : null, baseVersion: request.baseVersion },
      );
    }
    const reached = issuedMonthsReached(
      month,
      await findRatesOfClients(tx, [clientId]),
      await findStatementNumbers(tx, [clientId], { from: month }),
    );
    const invoiced = reached.length > 0;
    if (invoiced && !reason) {
      const named = reached.map((statement) => `${statement.month} (statement No. ${statement.number})`).join(", ");
      throw badRequest(
        [{ path: "body.reason", message: `is required: this rate applies to issued statements: ${named}` }],
        `A reason is required: this rate applies to months already invoiced: ${named}`,
      );
    }
    const version = (current?.version ?? 0) + 1;
    const author = { sub: actor.sub, username: actor.username, name: actor.name };
    const saved = await saveRate(tx, {
      clientId,
      month,
      hourlyRate,
      version,
      setAt: now,
      setBySub: author.sub,
      setByUsername: author.username,
      setByName: author.name,
      reason,
    });
    await insertRateChange(tx, {
      clientId,
      month,
      hourlyRate,
      previousRate: current?.hourlyRate ?? null,
      version,
      invoiced,
      reason,
      changedAt: now,
      changedBySub: author.sub,
      changedByUsername: author.username,
      changedByName: author.name,
    });
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "billing.rate.set",
        { type: "client", id: clientId },
        { month, hourlyRate, previousRate: current?.hourlyRate ?? null, version, invoiced, reason },
      ),
    );
    return toClientMonthRate(saved);
  });
}
