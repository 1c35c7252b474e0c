import { type ErrorBody, errorIssueSchema, type User, userSchema } from "@vigil/contract";
import { z } from "zod";
import { currentFromDetails } from "../../components/forms/field-messages";
import { ApiRequestError } from "../../lib/api-client";

const issuesSchema = z.object({ issues: z.array(errorIssueSchema) });

/** The server's error body behind a failed mutation, or a generic one for anything else. */
export function errorBodyOf(error: unknown): ErrorBody | null {
  if (!error) return null;
  if (error instanceof ApiRequestError) return error.body;
  return { status: 0, code: "unavailable", message: error instanceof Error ? error.message : String(error) };
}

/**
 * The server's messages per form field: `body.email` → `email`, `body.groups.0` → `groups`. Issues that name no
 * body field are left to the caller's general error.
 */
export function fieldErrorsOf(error: ErrorBody | null): Record<string, string> {
  const parsed = issuesSchema.safeParse(error?.details);
  if (!parsed.success) return {};
  const fields: Record<string, string> = {};
  for (const issue of parsed.data.issues) {
    const [location, field] = issue.path.split(".");
    if (location === "body" && field && !fields[field]) fields[field] = issue.message;
  }
  return fields;
}

/**
 * The user as they are now, when a change was refused because someone changed them first (412, `details.current`):
 * the dialogs show it instead of the user they opened with. Undefined for any other failure.
 */
export function currentUserOf(error: unknown): User | undefined {
  const current = userSchema.safeParse(currentFromDetails(error));
  return current.success ? current.data : undefined;
}
