import type { User } from "@vigil/contract";
import { ProfessionalIdentityForm } from "../../../components/users/professional-identity-form";
import { AccountSection } from "./account-section";

/** One's own professional identity: what reports one signs print under the signature, and the NPI hospitals get. */
export function ProfessionalSection({ user }: { user: User }) {
  return (
    <AccountSection
      title="Professional details"
      description="Printed under your signature on every report you sign from now on (name and credentials, NPI, board certifications) and sent to hospitals with the reports. Reports already signed keep what they printed."
    >
      <ProfessionalIdentityForm user={user} />
    </AccountSection>
  );
}
