import { billableHoursQuerySchema } from "@vigil/contract";
import { type QueryProblems, queryProblems } from "../../components/tables/query-problems";
import type { BillableHoursParams } from "./api/query-keys";

export { type QueryProblems, sentence, serverQueryProblems } from "../../components/tables/query-problems";

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** The default period: the current month to date, by the user's calendar. */
export function currentMonthToDate(now: Date = new Date()): { from: string; to: string } {
  const month = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
  return { from: `${month}-01`, to: `${month}-${pad(now.getDate())}` };
}

/**
 * What the contract's own query schema says about the filters before anything is sent (a period the server would
 * refuse is not asked for): the same messages the server would answer with.
 */
export function checkReportQuery(params: BillableHoursParams): QueryProblems {
  return queryProblems(billableHoursQuerySchema, params);
}
