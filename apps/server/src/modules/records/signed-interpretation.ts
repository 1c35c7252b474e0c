import type { InterpretationData, RevisionChange } from "@vigil/contract";
import type { SignedInterpretation } from "./record-types.js";

/** What the reports hook is told of a signing or an addendum just planned: the signed data and the item's meta. */
export function signedInterpretationOf(
  caseId: string,
  interpretationId: string,
  revision: number,
  plan: { change: RevisionChange; data: unknown; meta: Record<string, unknown> },
  at: Date,
): SignedInterpretation {
  const meta = plan.meta as Pick<SignedInterpretation, "signedBy" | "signedAt" | "addenda">;
  return {
    caseId,
    interpretationId,
    revision,
    change: plan.change as SignedInterpretation["change"],
    data: plan.data as InterpretationData,
    signedBy: meta.signedBy,
    signedAt: meta.signedAt,
    addenda: meta.addenda ?? [],
    at,
  };
}
