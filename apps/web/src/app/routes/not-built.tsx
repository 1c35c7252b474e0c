import Typography from "@mui/material/Typography";
import { PageHeading } from "../../components/layouts/page-heading";
import { useCurrentPage } from "../route-handle";

/** Placeholder for the pages later issues build; routing, layout, title and access already apply to them. */
export function NotBuiltPage() {
  const page = useCurrentPage();
  return (
    <>
      <PageHeading>{page?.title ?? "Vigil"}</PageHeading>
      <Typography color="text.secondary">This screen is not built yet.</Typography>
    </>
  );
}
