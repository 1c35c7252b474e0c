import TextField from "@mui/material/TextField";
import { billingOverviewQuerySchema, monthSchema } from "@vigil/contract";
import { useState } from "react";
import { queryProblems, sentence } from "../../../components/tables/query-problems";

/** A month from the URL, or nothing when it is not one (a hand-edited URL is not sent to the server). */
export function urlMonth(value: string): string | undefined {
  return monthSchema.safeParse(value).success ? value : undefined;
}

/** The contract's rule for the period's order (`orderedRange`), as shown beside the From month; null when kept. */
function orderProblem(from: string, to: string): string | null {
  if (!urlMonth(from) || !urlMonth(to)) return null;
  const problem = queryProblems(billingOverviewQuerySchema, { from, to }).from;
  return problem ? sentence(problem) : null;
}

/** The period filter's check: both ends are months and the first is not after the last. */
export function monthRangeProblem(from: string, to: string): string | null {
  if (from && !monthSchema.safeParse(from).success) return "The first month must be a month as YYYY-MM.";
  if (to && !monthSchema.safeParse(to).success) return "The last month must be a month as YYYY-MM.";
  const order = orderProblem(from, to);
  return order ? `From month: ${order}.` : null;
}

/**
 * One end of the period. Browsers without a month picker show a text box, so typed text reaches the URL only
 * once it is a whole month (or empty); until then it stays in the box, marked.
 */
function MonthField({
  label,
  urlValue,
  shown,
  onSettled,
  error,
}: {
  label: string;
  urlValue: string;
  /** What the server used when the URL says nothing (its default period). */
  shown: string;
  onSettled: (value: string) => void;
  error?: string | null;
}) {
  // The box follows the URL and the server's default as they change, in the same render: an effect would first
  // draw the old text (an empty box until the answer's period is copied into it).
  const settled = urlValue || shown;
  const [text, setText] = useState(settled);
  const [followed, setFollowed] = useState(settled);
  if (settled !== followed) {
    setFollowed(settled);
    setText(settled);
  }
  const partial = text !== "" && !monthSchema.safeParse(text).success;
  return (
    <TextField
      label={label}
      type="month"
      size="small"
      value={text}
      onChange={(event) => {
        const value = event.target.value;
        setText(value);
        if (value === "" || monthSchema.safeParse(value).success) onSettled(value);
      }}
      placeholder="YYYY-MM"
      error={partial || Boolean(error)}
      helperText={partial ? "A month as YYYY-MM" : (error ?? undefined)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { pattern: "\\d{4}-\\d{2}" } }}
      sx={{ minWidth: 170 }}
    />
  );
}

export type MonthRangeFieldsProps = {
  from: string;
  to: string;
  /** The server's period when the URL names none (its default: the last 12 months). */
  shownFrom?: string;
  shownTo?: string;
  onChange: (patch: { from?: string; to?: string }) => void;
};

export function MonthRangeFields({ from, to, shownFrom = "", shownTo = "", onChange }: MonthRangeFieldsProps) {
  const order = orderProblem(from, to);
  return (
    <>
      <MonthField
        label="From month"
        urlValue={from}
        shown={shownFrom}
        onSettled={(value) => onChange({ from: value })}
        error={order}
      />
      <MonthField label="To month" urlValue={to} shown={shownTo} onSettled={(value) => onChange({ to: value })} />
    </>
  );
}
