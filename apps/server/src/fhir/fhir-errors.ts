/**
 * The FHIR endpoint's one error type (docs/design/FHIR.md, "Errors"): thrown anywhere under `/fhir/R4`, answered by
 * the frame as an `OperationOutcome` with this status. `code` is from FHIR's IssueType value set.
 */
export type FhirIssueCode =
  | "invalid"
  | "structure"
  | "required"
  | "value"
  | "security"
  | "login"
  | "forbidden"
  | "not-found"
  | "not-supported"
  | "duplicate"
  | "conflict"
  | "processing"
  | "too-costly"
  | "exception"
  | "throttled"
  | "informational";

export type FhirIssue = {
  severity: "fatal" | "error" | "warning" | "information";
  code: FhirIssueCode;
  diagnostics: string;
  /** FHIRPath-like locations of the issue, e.g. `Patient.identifier` or a query parameter's name. */
  expression?: string[];
};

export type OperationOutcome = { resourceType: "OperationOutcome"; issue: FhirIssue[] };

export class FhirError extends Error {
  readonly status: number;
  readonly issues: FhirIssue[];
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: FhirIssueCode,
    diagnostics: string,
    options: { expression?: string[]; headers?: Record<string, string>; more?: FhirIssue[] } = {},
  ) {
    super(diagnostics);
    this.name = "FhirError";
    this.status = status;
    this.issues = [
      { severity: "error", code, diagnostics, ...(options.expression ? { expression: options.expression } : {}) },
      ...(options.more ?? []),
    ];
    this.headers = options.headers ?? {};
  }

  get outcome(): OperationOutcome {
    return operationOutcome(this.issues);
  }
}

export function operationOutcome(issues: FhirIssue[]): OperationOutcome {
  return { resourceType: "OperationOutcome", issue: issues };
}

/** RFC 6750 §3: a refused bearer token names the error in `WWW-Authenticate`. */
export function bearerChallenge(
  error: "invalid_token" | "insufficient_scope" | undefined,
  description?: string,
): string {
  const parts = ['Bearer realm="fhir"'];
  if (error) parts.push(`error="${error}"`);
  if (description) parts.push(`error_description="${description.replace(/["\\]/g, "'")}"`);
  return parts.join(", ");
}
