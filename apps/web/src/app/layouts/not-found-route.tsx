import { useLocation } from "react-router";
import { NotFoundPage } from "../../components/errors/not-found-page";
import { BaseLayout } from "../../components/layouts/base-layout";

/** The catch-all route: any path outside the page table. */
export function NotFoundRoute() {
  const { pathname } = useLocation();
  return (
    <BaseLayout>
      <NotFoundPage path={pathname} />
    </BaseLayout>
  );
}
