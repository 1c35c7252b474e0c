import type { SmartClient } from "@vigil/contract";
import type { FieldErrors } from "../../components/forms/field-messages";

/** The registration form's values: the JWKS and the scopes as the administrator pastes or types them. */
export type SmartClientFormValues = {
  name: string;
  systemClientId: string;
  keySource: "url" | "jwks";
  jwksUrl: string;
  jwksText: string;
  scopesText: string;
  enabled: boolean;
};

export const keySourceLabels: Record<SmartClientFormValues["keySource"], string> = {
  url: "JWKS URL (the hospital publishes its public keys)",
  jwks: "Paste the JWKS (public keys only)",
};

export function smartClientFormValues(system: SmartClient | null): SmartClientFormValues {
  return {
    name: system?.name ?? "",
    systemClientId: system?.systemClientId ?? "",
    keySource: system?.jwks ? "jwks" : "url",
    jwksUrl: system?.jwksUrl ?? "",
    jwksText: system?.jwks ? JSON.stringify(system.jwks, null, 2) : "",
    scopesText: (system?.scopes ?? ["system/DiagnosticReport.rs", "system/Patient.rs"]).join("\n"),
    enabled: system?.enabled ?? true,
  };
}

/** Pasted text that is not JSON is sent as it is, so the schema refuses it under the JWKS field. */
function parseJwks(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.trim() === "" ? null : text;
  }
}

/** The form's values as the body both routes take (create: `systemClientId`; change: `baseVersion`). */
export function toSmartClientBody(values: SmartClientFormValues) {
  return {
    name: values.name,
    jwksUrl: values.keySource === "url" ? values.jwksUrl.trim() : null,
    jwks: values.keySource === "jwks" ? parseJwks(values.jwksText) : null,
    scopes: values.scopesText.split(/\s+/).filter(Boolean),
    enabled: values.enabled,
  };
}

/**
 * A body path's message → the form field showing it: `jwks.keys.0.d` under the JWKS ("keys.0.d is a private key
 * member…"), `scopes.1` under the scopes naming the scope, a missing JWKS under whichever source was chosen.
 */
export function formFieldErrors(errors: FieldErrors, values: SmartClientFormValues): FieldErrors {
  const mapped: FieldErrors = {};
  const put = (field: string, message: string) => {
    if (!(field in mapped)) mapped[field] = message;
  };
  const scopes = toSmartClientBody(values).scopes;
  for (const [path, message] of Object.entries(errors)) {
    const [head, ...rest] = path.split(".");
    if (head === "jwks") {
      // keys.0.d → "Key 1 (d) is a private key member…"; the set as a whole keeps the bare message.
      const [keys, index, ...member] = rest;
      const which =
        keys === "keys" && index !== undefined
          ? `Key ${Number(index) + 1}${member.length > 0 ? ` (${member.join(".")})` : ""} `
          : "";
      put("jwksText", which ? `${which}${message}` : message);
    } else if (head === "scopes") {
      const index = Number(rest[0]);
      put("scopesText", Number.isInteger(index) ? `${JSON.stringify(scopes[index])} ${message}` : message);
    } else if (head === "jwksUrl") {
      put(values.keySource === "url" ? "jwksUrl" : "jwksText", message);
    } else if (head !== undefined) {
      put(head, message);
    }
  }
  return mapped;
}
