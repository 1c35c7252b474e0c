import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { apiErrorOf, serverFieldErrors } from "../forms/field-messages";

/**
 * The pages a one-time link opens with no account (a critical finding's acknowledgement, a report's download): what
 * their refusals have in common, and how they are shown. The token travels only in request bodies, so a 400 about
 * it is a link cut short or mangled.
 */

/** The refusals such a page words itself (not ours, used or expired, too many tries): kept off the error list. */
export const oneTimeLinkStatuses = [400, 404, 410, 429] as const;

export type LinkProblem =
  /** Not a link Vigil made, or cut short. */
  | { kind: "invalid" }
  /** Too many tries from this network. */
  | { kind: "throttled" }
  /** Used or expired (or closed): the page reads `details` of the 410 with its own schema. */
  | { kind: "gone"; details: unknown };

/** What went wrong with a one-time link's call, when it was the link (not the connection or the server). */
export function linkProblemOf(error: unknown): LinkProblem | undefined {
  const body = apiErrorOf(error);
  if (!body) return undefined;
  if (body.status === 404 || (body.status === 400 && "token" in serverFieldErrors(error))) return { kind: "invalid" };
  if (body.status === 429) return { kind: "throttled" };
  if (body.status === 410) return { kind: "gone", details: body.details };
  return undefined;
}

/** A link's holder is not one of the client's staff: times are shown in their own zone, named. */
export function readerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export const throttledLinkText = {
  title: "Too many tries from this network.",
  detail: "Wait a minute, then open the link again.",
} as const;

/** Why the link cannot be used, in words read at a glance, with no button: there is nothing to retry. */
export function LinkRefusal({ title, detail }: { title: string; detail: string }) {
  return (
    <Alert severity="warning" role="alert">
      <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
      <Typography>{detail}</Typography>
    </Alert>
  );
}

/** The link could not be read for another reason (no connection, a server error): that one is worth retrying. */
export function LinkUnreachable({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          Try again
        </Button>
      }
    >
      {what} could not be opened. Check the connection and try again.
    </Alert>
  );
}
