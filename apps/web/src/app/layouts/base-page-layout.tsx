import { Outlet } from "react-router";
import { BaseLayout } from "../../components/layouts/base-layout";
import { useCurrentPage } from "../route-handle";
import { useSession } from "../session";
import { PageGate } from "./page-gate";

/** The `base` layout (no chrome): /signin and the printable statement and report, the latter two gated. */
export function BasePageLayout() {
  const page = useCurrentPage();
  // Public base pages (sign-in) need no menu or user details; loading them there would only be cancelled.
  const session = useSession({ load: page?.access !== "public" });
  return (
    <BaseLayout>
      <PageGate page={page} session={session}>
        <Outlet />
      </PageGate>
    </BaseLayout>
  );
}
