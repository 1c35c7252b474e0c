import { pages } from "@vigil/contract";
import { Navigate } from "react-router";

/** `/bugs/unit-tests`: the address people type for the Unit tests tab, which lives at `/bugs?tab=unit-tests`. */
export function UnitTestsAddress() {
  return <Navigate to={pages.bugs.href({}, { tab: "unit-tests" })} replace />;
}
