import Breadcrumbs from "@mui/material/Breadcrumbs";
import Link from "@mui/material/Link";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { useBreadcrumbs } from "../api/get-breadcrumbs";

/** The trail from `GET /chrome/breadcrumbs` for the current path; the last crumb is the current page. */
export function BreadcrumbsTrail({ path }: { path: string }) {
  const { data, isPending, isError } = useBreadcrumbs(path);
  if (isError) return null;
  if (isPending) return <Skeleton variant="text" width={240} sx={{ mb: 2 }} aria-hidden="true" />;
  if (data.items.length === 0) return null;
  return (
    <Breadcrumbs aria-label="Breadcrumbs" className="vigil-no-print" sx={{ mb: 2 }}>
      {data.items.map((crumb, index) => {
        const last = index === data.items.length - 1;
        if (crumb.url && !last) {
          return (
            <Link
              key={`${crumb.title}:${crumb.url}`}
              component={RouterLink}
              to={crumb.url}
              underline="hover"
              color="inherit"
            >
              {crumb.title}
            </Link>
          );
        }
        return (
          <Typography
            key={`${crumb.title}:${crumb.url ?? ""}`}
            color="text.primary"
            aria-current={last ? "page" : undefined}
          >
            {crumb.title}
          </Typography>
        );
      })}
    </Breadcrumbs>
  );
}
