import type { z } from "zod";

/**
 * How the contract words a problem: a fragment that follows the field's name ("is required", "must be at most 200
 * characters"). A form puts its label in front ("Name is required"); the API's 400 puts the field's path there
 * ("body.name is required"). The contract's own messages are written this way; this map words zod's built-in
 * issues the same, instead of zod's sentences about types ("Too big: expected string to have <=200 characters").
 * `common.ts` makes it zod's default, so every schema, form and route speaks alike; a message a schema sets itself
 * still takes precedence (zod asks the schema first).
 */
export const contractErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) return "is required";
      if (issue.expected === "number" || issue.expected === "int" || issue.expected === "bigint") {
        return "must be a number";
      }
      if (issue.expected === "string") return "must be text";
      if (issue.expected === "boolean") return "must be true or false";
      if (issue.expected === "array") return "must be a list";
      if (issue.expected === "date") return "must be a date";
      return "is invalid";
    case "too_small": {
      const minimum = Number(issue.minimum);
      if (issue.origin === "string") {
        return minimum <= 1 ? "is required" : `must be at least ${minimum} characters`;
      }
      if (issue.origin === "array" || issue.origin === "set") return `needs at least ${minimum}`;
      return issue.inclusive === false ? `must be more than ${minimum}` : `must be at least ${minimum}`;
    }
    case "too_big": {
      const maximum = Number(issue.maximum);
      if (issue.origin === "string") return `must be at most ${maximum} characters`;
      if (issue.origin === "array" || issue.origin === "set") return `may have at most ${maximum}`;
      return issue.inclusive === false ? `must be less than ${maximum}` : `must be at most ${maximum}`;
    }
    case "not_multiple_of":
      return issue.divisor === 1 ? "must be a whole number" : `must be a multiple of ${issue.divisor}`;
    case "invalid_value":
      // zod 4 reports a missing choice (an enum left empty) as an invalid value.
      if (issue.input === undefined || issue.input === null || issue.input === "") return "is required";
      return "is not one of the allowed values";
    case "invalid_format":
      return formatMessages[issue.format] ?? "is not in the expected form";
    case "unrecognized_keys":
      return `may not include ${issue.keys.join(", ")}`;
    default:
      return "is invalid";
  }
};

const formatMessages: Record<string, string> = {
  email: "must be an email address",
  uuid: "must be a valid id",
  guid: "must be a valid id",
  url: "must be a web address",
  datetime: "must be a date and time such as 2026-11-05T14:30:00Z",
  date: "must be a date as YYYY-MM-DD",
  time: "must be a time as HH:MM",
};
